//! The parser on whole bodies, on precedence, and on broken text (every error at its place).

use fbd_model::{Type, Value};
use fbd_st::ast::{Arg, BinOp, CaseLabel, Expr, Stmt, UnOp};
use fbd_st::parse;

fn errors(text: &str) -> Vec<String> {
    parse(text).expect_err("a broken text").iter().map(|e| e.to_string()).collect()
}

#[test]
fn a_function_block_body_of_every_statement_kind_parses() {
    let text = "(* a counter *)
IF start AND NOT stop THEN
    run := TRUE;   // seal in
ELSIF stop THEN run := FALSE;
ELSE ;
END_IF;
CASE mode OF
  1, 2: speed := 10;
  3..5: speed := INT#20; x := -1;
  ELSE speed := 0;
END_CASE;
FOR i := 1 TO 10 BY 2 DO
  total := total + i;
  IF total > 100 THEN EXIT; END_IF;
END_FOR;
WHILE n > 0 DO n := n - 1; END_WHILE;
REPEAT n := n + 1; UNTIL n >= 3 END_REPEAT;
ton1(IN := run, PT := T#1s500ms, Q => done, NOT ET => elapsed);
y := LIMIT(0, x * 2, 100) MOD 7;
RETURN;";
    let body = parse(text).expect("parses");
    assert_eq!(body.len(), 8);
    let Stmt::If { arms, otherwise, .. } = &body[0] else { panic!("IF") };
    assert_eq!((arms.len(), otherwise.len()), (2, 0));
    let Stmt::Case { arms, otherwise, .. } = &body[1] else { panic!("CASE") };
    assert_eq!(arms.len(), 2);
    assert!(matches!(&arms[1].labels[0], CaseLabel::Range(..)));
    assert_eq!(arms[1].body.len(), 2);
    assert_eq!(otherwise.len(), 1);
    let Stmt::Assign { value: Expr::Lit { value, ty, .. }, .. } = &arms[1].body[0] else { panic!("typed literal") };
    assert_eq!((*value, *ty), (Value::Int(20), Some(Type::Int)));
    assert!(matches!(&body[2], Stmt::For(f) if f.by.is_some() && f.body.len() == 2));
    let Stmt::Call(call) = &body[5] else { panic!("call") };
    assert_eq!(call.args.len(), 4);
    assert!(matches!(&call.args[1], Arg::In { value: Expr::Lit { value: Value::Time(1_500_000_000), .. }, .. }));
    assert!(matches!(&call.args[3], Arg::Out { negated: true, .. }));
    assert!(matches!(body[7], Stmt::Return(_)));
}

#[test]
fn precedence_is_iec_s_with_unary_minus_on_its_operand() {
    let e = |t: &str| match parse(&format!("x := {t};")).expect("parses").remove(0) {
        Stmt::Assign { value, .. } => value,
        _ => panic!("an assignment"),
    };
    // a OR b AND c = a OR (b AND c)
    assert!(
        matches!(e("a OR b AND c"), Expr::Binary(BinOp::Or, _, r, _) if matches!(*r, Expr::Binary(BinOp::And, ..)))
    );
    // a + b * c
    assert!(matches!(e("a + b * c"), Expr::Binary(BinOp::Add, _, r, _) if matches!(*r, Expr::Binary(BinOp::Mul, ..))));
    // a = b < c: comparison before equality
    assert!(matches!(e("a = b < c"), Expr::Binary(BinOp::Eq, _, r, _) if matches!(*r, Expr::Binary(BinOp::Lt, ..))));
    // -2 ** 2 is (-2) ** 2 in matiec's grammar
    assert!(matches!(e("-2 ** 2"), Expr::Binary(BinOp::Pow, l, _, _) if matches!(*l, Expr::Unary(UnOp::Neg, ..))));
    // left associative: a - b - c = (a - b) - c
    assert!(matches!(e("a - b - c"), Expr::Binary(BinOp::Sub, l, _, _) if matches!(*l, Expr::Binary(BinOp::Sub, ..))));
    // & is AND; 16#FF a literal
    assert!(
        matches!(e("a & 16#FF"), Expr::Binary(BinOp::And, _, r, _) if matches!(*r, Expr::Lit { value: Value::Int(255), .. }))
    );
}

#[test]
fn every_error_is_reported_at_its_line_and_column_with_what_was_expected() {
    let text = "a := 1\nb := ;\nIF x THEN y := 2; END_IF\nc := 'open\nd := 3 +;\n";
    let found = errors(text);
    // a := 1 followed by b on the next line: a missing `;`.
    assert!(found.iter().any(|e| e.starts_with("2:1: expected `;`")), "{found:?}");
    assert!(found.iter().any(|e| e.starts_with("2:6: expected an expression")), "{found:?}");
    assert!(found.iter().any(|e| e.starts_with("4:6: a string is never closed")), "{found:?}");
    assert!(found.iter().any(|e| e.starts_with("5:9: expected an expression")), "{found:?}");
    assert!(found.len() >= 4, "{found:?}");
}

#[test]
fn a_pragma_is_refused_at_its_place_naming_what_it_is() {
    let found = errors("x := 1;\n{ printf(\"hi\"); }\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("2:1: expected a statement"), "{found:?}");
    assert!(found[0].contains("inline C"), "{found:?}");
}

#[test]
fn unclosed_comment_and_block_are_errors_not_hangs() {
    assert!(errors("x := 1; (* never closed").iter().any(|e| e.contains("comment `(*` is never closed")));
    assert!(errors("IF a THEN x := 1;").iter().any(|e| e.contains("expected `END_IF`")));
    assert!(errors("CASE a OF 1: x := 1;").iter().any(|e| e.contains("END_CASE")));
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    let deep = format!("x := {}1{};", "(".repeat(5000), ")".repeat(5000));
    assert!(errors(&deep).iter().any(|e| e.contains("nested more than")));
    let ifs = format!("{}x := 1;{}", "IF a THEN ".repeat(5000), "END_IF; ".repeat(5000));
    assert!(errors(&ifs).iter().any(|e| e.contains("nested more than")));
    let negs = format!("x := {}1;", "-".repeat(5000));
    assert!(errors(&negs).iter().any(|e| e.contains("nested more than")));
}

#[test]
fn arbitrary_bytes_never_panic() {
    // A cheap fuzz: every prefix of a body, and the body with each character dropped.
    let text = "IF a > 1 THEN b := LIMIT(0, a * 2, 10); ELSIF c THEN t(IN := d, Q => e); END_IF; x := 'a$'b' + T#1s;";
    for k in 0..=text.len() {
        if text.is_char_boundary(k) {
            let _ = parse(&text[..k]);
            let mut s = text.to_string();
            if k < text.len() {
                s.remove(k);
            }
            let _ = parse(&s);
        }
    }
}
