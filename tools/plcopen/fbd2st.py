#!/usr/bin/env python3
"""A PLCopen TC6 XML project as fbd2048's export writes it -> IEC 61131-3 Structured Text, the
way Beremiz turns FBD into ST before its compiler (matiec's iec2c) sees it: POUs in the order
their types need, each FBD body as statements in executionOrderId order, a function's result in
a temporary variable, a function block called with its inputs.

    fbd2st.py EXPORT.xml OUT.st

Only for checking the export (tools/plcopen/iec-check.sh); it reads what fbd2048 writes, not
every PLCopen file.
"""
import sys, re, xml.etree.ElementTree as ET
ns='{http://www.plcopen.org/xml/tc6_0201}'
T=lambda tag: ns+tag
t=ET.parse(sys.argv[1]); out=[]
def vtype(v):
    ty=list(v.find(T('type')))[0]
    return ty.get('name') if ty.tag==T('derived') else ty.tag[len(ns):]
pous=list(t.iter(T('pou'))); byname={p.get('name'):p for p in pous}
def iface_vars(p):
    d={}
    for sec in ['inputVars','outputVars','localVars']:
        for e in p.find(T('interface')).findall(T(sec)):
            for v in e.findall(T('variable')): d[v.get('name')]=vtype(v)
    return d
STDFB={'R_TRIG':{'Q':'BOOL'},'F_TRIG':{'Q':'BOOL'},'SR':{'Q1':'BOOL'},'RS':{'Q1':'BOOL'},
 'CTU_LINT':{'Q':'BOOL','CV':'LINT'},'CTD_LINT':{'Q':'BOOL','CV':'LINT'},'CTUD_LINT':{'QU':'BOOL','QD':'BOOL','CV':'LINT'}}
def decl(iface,extra):
    res=[]
    for sec,kw in [('inputVars','VAR_INPUT'),('outputVars','VAR_OUTPUT'),('localVars','VAR')]:
        for e in iface.findall(T(sec)):
            res.append(kw)
            for v in e.findall(T('variable')):
                init=v.find(T('initialValue')); iv=''
                if init is not None:
                    sv=init.find(T('simpleValue'))
                    if sv is not None: iv=' := '+sv.get('value')
                    else:
                        st=init.find(T('structValue'))
                        if st is not None: iv=' := ('+', '.join('%s := %s'%(m.get('member'),m.find(T('simpleValue')).get('value')) for m in st.findall(T('value')))+')'
                res.append('  %s : %s%s;'%(v.get('name'),vtype(v),iv))
            res.append('END_VAR')
    if extra: res+=['VAR']+['  %s : %s;'%x for x in extra]+['END_VAR']
    return res
order=[]; seen=set()
def visit(p):
    if p.get('name') in seen: return
    seen.add(p.get('name'))
    for ty in p.iter(T('derived')):
        if ty.get('name') in byname: visit(byname[ty.get('name')])
    order.append(p)
for p in pous: visit(p)
for pou in order:
    kind={'program':'PROGRAM','functionBlock':'FUNCTION_BLOCK','function':'FUNCTION'}[pou.get('pouType')]
    name=pou.get('name'); body=pou.find(T('body')); st=body.find(T('ST')); fbd=body.find(T('FBD'))
    vars_=iface_vars(pou); stmts=[]; temps=[]
    if st is not None:
        stmts.append(''.join(st.itertext()))
    else:
        els={e.get('localId'):e for e in fbd if e.get('localId')}
        tmp={}  # localId -> (name, type)
        def lit_type(x):
            if x in ('TRUE','FALSE'): return 'BOOL'
            if re.match(r'^-?[0-9.]+(e-?[0-9]+)?$',x,re.I): return 'LREAL' if ('.' in x or 'e' in x.lower()) else 'LINT'
            return vars_.get(x,'LINT')
        def negated_out(e,f):
            outs=list(e.find(T('outputVariables')) or [])
            v=next((o for o in outs if o.get('formalParameter')==f),outs[0] if len(outs)==1 else None)
            return v is not None and v.get('negated')=='true'
        def ref(conn):
            rid=conn.get('refLocalId'); e=els[rid]; tag=e.tag[len(ns):]
            if tag=='inVariable': x=e.findtext(T('expression')); return x, lit_type(x)
            if e.get('instanceName'):
                f=conn.get('formalParameter'); fbt=vars_.get(e.get('instanceName'))
                ty=STDFB.get(fbt,{}).get(f.upper()) or (iface_vars(byname[fbt]).get(f) if fbt in byname else None) or next((v for k,v in iface_vars(byname[fbt]).items() if k.upper()==f.upper()),'LINT')
                x='%s.%s'%(e.get('instanceName'),f)
                return ('NOT(%s)'%x if negated_out(e,f) else x), ty
            x,ty=tmp[rid]
            return ('NOT(%s)'%x if negated_out(e,conn.get('formalParameter')) else x), ty
        items=[(int(e.get('executionOrderId','0')),0 if e.tag==T('block') else 1,e) for e in els.values() if e.tag in (T('block'),T('outVariable'))]
        for _,_,e in sorted(items,key=lambda x:(x[0],x[1])):
            if e.tag==T('block'):
                args=[]; tys=[]
                for v in e.find(T('inputVariables')):
                    c=v.find(T('connectionPointIn')).find(T('connection'))
                    if c is not None:
                        x,ty=ref(c)
                        if v.get('negated')=='true': x='NOT(%s)'%x
                        args.append((v.get('formalParameter'),x)); tys.append((v.get('formalParameter'),ty))
                tn=e.get('typeName')
                if e.get('instanceName'):
                    stmts.append('%s(%s);'%(e.get('instanceName'),', '.join('%s := %s'%a for a in args)))
                else:
                    if tn in ('EQ','NE','GT','GE','LT','LE','AND','OR','XOR','NOT'): rt='BOOL' if tn not in ('AND','OR','XOR','NOT') or all(t=='BOOL' for _,t in tys) else 'LINT'
                    elif tn=='LREAL_TO_LINT': rt='LINT'
                    elif tn=='LINT_TO_LREAL': rt='LREAL'
                    elif tn in ('SEL','MUX','MOVE'): rt=next((t for f,t in tys if f not in ('G','K')),'LINT')
                    else: rt='LREAL' if any(t=='LREAL' for f,t in tys) else 'LINT'
                    nm='_t%s'%e.get('localId'); temps.append((nm,rt)); tmp[e.get('localId')]=(nm,rt)
                    if tn=='NOT': call='NOT(%s)'%args[0][1]
                    else: call='%s(%s)'%(tn,', '.join('%s := %s'%a for a in args))
                    stmts.append('%s := %s;'%(nm,call))
            else:
                c=e.find(T('connectionPointIn')).find(T('connection'))
                stmts.append('%s := %s;'%(e.findtext(T('expression')),ref(c)[0]))
    out+=['%s %s'%(kind,name)]+decl(pou.find(T('interface')),temps)+stmts+['END_'+kind+'\n']
prog=[p.get('name') for p in pous if p.get('pouType')=='program'][0]
out.append('CONFIGURATION c RESOURCE r ON PLC TASK t(INTERVAL := T#5ms, PRIORITY := 0); PROGRAM i WITH t : %s; END_RESOURCE END_CONFIGURATION'%prog)
open(sys.argv[2],'w').write('\n'.join(out)+'\n')
