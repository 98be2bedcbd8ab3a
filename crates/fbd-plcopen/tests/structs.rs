//! Structures of a PLCopen file flattened into a variable per member on import, and what is
//! refused about them: members read or written as variables, types that never end or explode,
//! a member that collides with a declared variable.

use std::path::Path;

use fbd_engine::{Runtime, Value};

#[allow(dead_code)] // `data` and `exported` are for the other tests
mod common;
use common::compile_doc;

/// A member of a structure, read or written, is said to be one (it was "written but not
/// declared", or for a read an instance nobody declared).
#[test]
fn structure_members_are_reported_as_such_where_they_are_read_and_written() {
    let xml = r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <types><pous>
    <pou name="main" pouType="program">
      <interface>
        <localVars>
          <variable name="st"><type><derived name="S_STATUS"/></type></variable>
          <variable name="t1"><type><derived name="TON"/></type></variable>
          <variable name="q"><type><BOOL/></type></variable>
        </localVars>
      </interface>
      <body><FBD>
        <inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>st.Run</expression></inVariable>
        <outVariable localId="2"><position x="100" y="0"/><connectionPointIn><connection refLocalId="1"/></connectionPointIn><expression>st.Done</expression></outVariable>
        <inVariable localId="3"><position x="0" y="40"/><connectionPointOut/><expression>t1.Q</expression></inVariable>
        <outVariable localId="4"><position x="100" y="40"/><connectionPointIn><connection refLocalId="3"/></connectionPointIn><expression>q</expression></outVariable>
      </FBD></body>
    </pou>
  </pous></types>
</project>"#;
    let e = fbd_plcopen::import(Path::new("st.xml"), xml).expect_err("refused").to_string();
    assert!(e.contains("st.xml:13:9: `st.Run` is a member of `st` (S_STATUS, a type the file does not declare"), "{e}");
    assert!(e.contains("st.xml:14:9: `st.Done` is a member of `st` (S_STATUS,"), "{e}");
    assert!(!e.contains("t1.Q"), "an instance's output is not a structure member: {e}");
}

/// Structures declared in the file's dataTypes are flattened, a variable per member: a program
/// input and output of structure type become an input and an output per member (`cmd_Start`,
/// `st_Count`), `st.Count` read before it is written is the previous scan's value, member
/// initial values come from the type or the variable's own, and nested structures flatten in
/// turn. (The one public FBD `plc.xml` checked used structures, and none could be imported.)
#[test]
fn structures_are_flattened_into_a_variable_per_member() {
    let xml = r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <types>
    <dataTypes>
      <dataType name="S_CMD"><baseType><struct>
        <variable name="Start"><type><BOOL/></type></variable>
      </struct></baseType></dataType>
      <dataType name="S_STATUS"><baseType><struct>
        <variable name="Run"><type><BOOL/></type></variable>
        <variable name="Count"><type><LINT/></type><initialValue><simpleValue value="5"/></initialValue></variable>
        <variable name="Cmd"><type><derived name="S_CMD"/></type></variable>
      </struct></baseType></dataType>
    </dataTypes>
    <pous>
    <pou name="main" pouType="program">
      <interface>
        <inputVars><variable name="cmd"><type><derived name="S_CMD"/></type></variable></inputVars>
        <outputVars><variable name="st"><type><derived name="s_status"/></type>
          <initialValue><structValue><value member="count"><simpleValue value="10"/></value></structValue></initialValue>
        </variable></outputVars>
      </interface>
      <body><FBD>
        <inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>cmd.Start</expression></inVariable>
        <block localId="2" typeName="NOT"><position x="100" y="0"/>
          <inputVariables><variable formalParameter="IN"><connectionPointIn><connection refLocalId="1"/></connectionPointIn></variable></inputVariables>
          <inOutVariables/><outputVariables><variable formalParameter="OUT"><connectionPointOut/></variable></outputVariables>
        </block>
        <outVariable localId="3" executionOrderId="3"><position x="200" y="0"/><connectionPointIn><connection refLocalId="2" formalParameter="OUT"/></connectionPointIn><expression>st.Run</expression></outVariable>
        <inVariable localId="4"><position x="0" y="60"/><connectionPointOut/><expression>st.Count</expression></inVariable>
        <inVariable localId="5"><position x="0" y="100"/><connectionPointOut/><expression>1</expression></inVariable>
        <block localId="6" typeName="ADD" executionOrderId="1"><position x="100" y="60"/>
          <inputVariables>
            <variable formalParameter="IN1"><connectionPointIn><connection refLocalId="4"/></connectionPointIn></variable>
            <variable formalParameter="IN2"><connectionPointIn><connection refLocalId="5"/></connectionPointIn></variable>
          </inputVariables>
          <inOutVariables/><outputVariables><variable formalParameter="OUT"><connectionPointOut/></variable></outputVariables>
        </block>
        <outVariable localId="7" executionOrderId="2"><position x="200" y="60"/><connectionPointIn><connection refLocalId="6" formalParameter="OUT"/></connectionPointIn><expression>st.Count</expression></outVariable>
        <outVariable localId="8" executionOrderId="4"><position x="200" y="120"/><connectionPointIn><connection refLocalId="1"/></connectionPointIn><expression>st.Cmd.Start</expression></outVariable>
      </FBD></body>
    </pou>
  </pous></types>
  <instances><configurations><configuration name="c"><resource name="r"><task name="t" interval="T#10ms" priority="0"><pouInstance name="i" typeName="main"/></task></resource></configuration></configurations></instances>
</project>"#;
    let doc = fbd_plcopen::import(Path::new("st.xml"), xml).unwrap_or_else(|e| panic!("{e}")).doc;
    let names = |v: Vec<&str>| v.join(" ");
    assert_eq!(names(doc.inputs.iter().map(|p| p.name.as_str()).collect()), "cmd_Start");
    assert_eq!(names(doc.outputs.iter().map(|p| p.name.as_str()).collect()), "st_Run st_Count st_Cmd_Start");
    let mut rt = Runtime::new(compile_doc(&doc));
    rt.step();
    assert_eq!(rt.output("st_Run"), Some(Value::Bool(true)), "NOT of cmd.Start (FALSE)");
    assert_eq!(rt.output("st_Count"), Some(Value::Int(11)), "the variable's initial 10 (not the type's 5), plus one");
    rt.set_input("cmd_Start", Value::Bool(true)).expect("an input per member");
    rt.step();
    rt.step();
    assert_eq!(rt.output("st_Run"), Some(Value::Bool(false)));
    assert_eq!(rt.output("st_Cmd_Start"), Some(Value::Bool(true)), "a nested member");
    assert_eq!(rt.output("st_Count"), Some(Value::Int(13)), "counts a scan at a time");
}

/// A structure that contains itself, or structures that multiply into more variables than a
/// program could use (ten members of a type of ten members, ten deep), are refused at once with
/// the reason, not expanded until memory runs out.
#[test]
fn structures_that_never_end_or_explode_are_refused() {
    let file = |types: &str| {
        format!(
            r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <types><dataTypes>{types}</dataTypes><pous>
    <pou name="main" pouType="program">
      <interface><localVars><variable name="x"><type><derived name="T0"/></type></variable></localVars></interface>
      <body><FBD/></body>
    </pou>
  </pous></types>
</project>"#
        )
    };
    let member =
        |name: &str, ty: &str| format!(r#"<variable name="{name}"><type><derived name="{ty}"/></type></variable>"#);
    let t0 = format!(
        r#"<dataType name="T0"><baseType><struct>{}{}</struct></baseType></dataType>"#,
        member("a", "T1"),
        member("b", "T1")
    );
    let t1 = format!(r#"<dataType name="T1"><baseType><struct>{}</struct></baseType></dataType>"#, member("c", "T0"));
    let selfish = file(&(t0 + &t1));
    let e = fbd_plcopen::import(Path::new("self.xml"), &selfish).expect_err("refused").to_string();
    assert!(e.contains("structure type T0 contains itself (T0 → T1 → T0)"), "{e}");
    assert_eq!(e.matches("contains itself").count(), 1, "said once, not once per path (x.a, x.b): {e}");
    let mut types = String::new();
    for k in 0..10 {
        let inner: String = (0..10)
            .map(|m| {
                if k == 9 {
                    format!(r#"<variable name="m{m}"><type><BOOL/></type></variable>"#)
                } else {
                    member(&format!("m{m}"), &format!("T{}", k + 1))
                }
            })
            .collect();
        types.push_str(&format!(r#"<dataType name="T{k}"><baseType><struct>{inner}</struct></baseType></dataType>"#));
    }
    // Nested deeper than 16 (two members a level): said once, not once per path.
    let deep: String = (0..20)
        .map(|k| {
            format!(
                r#"<dataType name="T{k}"><baseType><struct>{}{}</struct></baseType></dataType>"#,
                member("a", &format!("T{}", k + 1)),
                member("b", &format!("T{}", k + 1))
            )
        })
        .collect();
    let e = fbd_plcopen::import(Path::new("deep.xml"), &file(&deep)).expect_err("refused").to_string();
    assert_eq!(e.matches("nests structures more than 16 deep").count(), 1, "{}", &e[..e.len().min(500)]);
    let e = fbd_plcopen::import(Path::new("big.xml"), &file(&types)).expect_err("refused").to_string();
    assert!(e.contains("flatten into more than 100000 variables"), "{e}");
    assert_eq!(e.matches("flatten into").count(), 1, "said once: {e}");
}

/// A member flattened onto the name of a declared variable (`st.Run` and `st_Run`) would make
/// two variables one: refused, naming it.
#[test]
fn a_flattened_member_that_collides_with_a_variable_is_refused() {
    let xml = r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <types><dataTypes><dataType name="S"><baseType><struct><variable name="Run"><type><BOOL/></type></variable></struct></baseType></dataType></dataTypes>
  <pous><pou name="main" pouType="program">
    <interface><localVars>
      <variable name="st"><type><derived name="S"/></type></variable>
      <variable name="st_Run"><type><BOOL/></type></variable>
    </localVars></interface>
    <body><FBD/></body>
  </pou></pous></types>
</project>"#;
    let e = fbd_plcopen::import(Path::new("c.xml"), xml).expect_err("refused").to_string();
    assert!(e.contains("`st_Run` is both a variable and a structure's member flattened to that name"), "{e}");
    // A whole structure read or written has no variable of its own.
    let whole = xml.replace("<variable name=\"st_Run\"><type><BOOL/></type></variable>", "").replace(
        "<FBD/>",
        r#"<FBD><inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>st</expression></inVariable>
           <outVariable localId="2"><position x="90" y="0"/><connectionPointIn><connection refLocalId="1"/></connectionPointIn><expression>st</expression></outVariable></FBD>"#,
    );
    let e = fbd_plcopen::import(Path::new("w.xml"), &whole).expect_err("refused").to_string();
    assert_eq!(e.matches("`st` is a whole structure; it is imported as a variable per member").count(), 2, "{e}");
}
