//! The JSON the browser sends (an action, the earned toggles, a counterexample's actions), read
//! through serde_json's untyped [`Value`] and checked field by field here.
//!
//! Not through `#[derive(Deserialize)]`: a typed read links serde's type-mismatch messages,
//! which can print a float, and with them the standard library's float formatting (about 7 KB
//! gzipped of a module that formats no float otherwise).

use serde_json::{Map, Value};

use crate::scene::ActionJson;

/// Reads a JSON array of strings.
pub fn string_array(json: &str) -> Result<Vec<String>, String> {
    let array = match parse(json)? {
        Value::Array(array) => array,
        other => {
            return Err(format!(
                "expected an array of strings, found {}",
                kind_of(&other)
            ));
        }
    };
    array
        .into_iter()
        .enumerate()
        .map(|(index, item)| match item {
            Value::String(text) => Ok(text),
            other => Err(format!(
                "expected an array of strings, found {} at index {index}",
                kind_of(&other)
            )),
        })
        .collect()
}

/// Reads an action: `{"kind": "deliver", "message": 3}`.
pub fn action(json: &str) -> Result<ActionJson, String> {
    match parse(json)? {
        Value::Object(object) => ActionFields::read(&object)?.into_action(),
        other => Err(format!("expected an object, found {}", kind_of(&other))),
    }
}

fn parse(json: &str) -> Result<Value, String> {
    serde_json::from_str(json).map_err(|error| error.to_string())
}

/// How an error names a JSON value's type.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Every field an [`ActionJson`] may carry; `kind` says which action. A field set to `null` is
/// absent.
struct ActionFields {
    kind: String,
    message: Option<u32>,
    node: Option<String>,
    client: Option<String>,
    to: Option<String>,
    record: Option<String>,
}

const ACTION_FIELDS: [&str; 6] = ["kind", "message", "node", "client", "to", "record"];

impl ActionFields {
    fn read(object: &Map<String, Value>) -> Result<ActionFields, String> {
        if let Some(unknown) = object
            .keys()
            .find(|key| !ACTION_FIELDS.contains(&key.as_str()))
        {
            return Err(format!(
                "unknown field `{unknown}`, expected one of `kind`, `message`, `node`, `client`, \
                 `to`, `record`"
            ));
        }
        let text = |field: &str| match object.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(other) => Err(format!(
                "`{field}` must be a string, not {}",
                kind_of(other)
            )),
        };
        let message = match object.get("message") {
            None | Some(Value::Null) => None,
            Some(number) => Some(
                number
                    .as_u64()
                    .and_then(|number| u32::try_from(number).ok())
                    .ok_or_else(|| "`message` must be a message id's number, like 7".to_string())?,
            ),
        };
        Ok(ActionFields {
            kind: text("kind")?.ok_or("missing field `kind`")?,
            message,
            node: text("node")?,
            client: text("client")?,
            to: text("to")?,
            record: text("record")?,
        })
    }

    fn into_action(self) -> Result<ActionJson, String> {
        let ActionFields {
            kind,
            message,
            node,
            client,
            to,
            record,
        } = self;
        let needs = |field: &str| format!("a {kind} action needs `{field}`");
        let message = || message.ok_or_else(|| needs("message"));
        let node = || node.clone().ok_or_else(|| needs("node"));
        Ok(match kind.as_str() {
            "deliver" => ActionJson::Deliver {
                message: message()?,
            },
            "drop" => ActionJson::Drop {
                message: message()?,
            },
            "duplicate" => ActionJson::Duplicate {
                message: message()?,
            },
            "start" => ActionJson::Start { node: node()? },
            "retry" => ActionJson::Retry { node: node()? },
            "next-stage" => ActionJson::NextStage,
            "tick" => ActionJson::Tick { node: node()? },
            "crash" => ActionJson::Crash { node: node()? },
            "torn-crash" => ActionJson::TornCrash { node: node()? },
            "restart" => ActionJson::Restart { node: node()? },
            "wipe" => ActionJson::Wipe { node: node()? },
            "corrupt" => ActionJson::Corrupt {
                node: node()?,
                record: record.ok_or_else(|| needs("record"))?,
            },
            "persist" => ActionJson::Persist { node: node()? },
            "send" => ActionJson::Send { node: node()? },
            "partition" => ActionJson::Partition { node: node()? },
            "heal" => ActionJson::Heal,
            "trim" => ActionJson::Trim { node: node()? },
            "request" => ActionJson::Request {
                client: client.clone().ok_or_else(|| needs("client"))?,
                node: node()?,
            },
            "beat" => ActionJson::Beat { node: node()? },
            "collect" => ActionJson::Collect { node: node()? },
            "retire" => ActionJson::Retire { node: node()? },
            "replace" => ActionJson::Replace { node: node()? },
            "hand-off" => ActionJson::HandOff {
                node: node()?,
                to: to.ok_or_else(|| needs("to"))?,
            },
            _ => return Err(format!("no action is called {kind:?}")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_reads_its_fields_and_refuses_what_it_does_not_know() {
        assert_eq!(
            action(r#"{"kind": "deliver", "message": 7, "node": null}"#),
            Ok(ActionJson::Deliver { message: 7 })
        );
        let refused = |json: &str| action(json).unwrap_err();
        assert_eq!(
            refused(r#"{"kind": "deliver"}"#),
            "a deliver action needs `message`"
        );
        assert!(refused(r#"{"kind": "deliver", "message": 7, "slot": 1}"#).contains("`slot`"));
        assert!(refused(r#"{"kind": "deliver", "message": 1.5}"#).contains("`message`"));
        assert!(refused(r#"{"kind": "deliver", "message": -1}"#).contains("`message`"));
        assert!(refused(r#"{"kind": "deliver", "message": 4294967296}"#).contains("`message`"));
        assert_eq!(
            refused(r#"{"kind": "tick", "node": 1}"#),
            "`node` must be a string, not a number"
        );
        assert_eq!(
            refused(r#"{"kind": "fly"}"#),
            r#"no action is called "fly""#
        );
        assert_eq!(refused(r#"{"message": 1}"#), "missing field `kind`");
        assert_eq!(refused("[1]"), "expected an object, found an array");
        assert!(refused(r#"{"kind": "#).contains("EOF"));
    }

    #[test]
    fn a_string_array_names_the_first_item_that_is_not_a_string() {
        assert_eq!(
            string_array(r#"["a", "b"]"#),
            Ok(vec!["a".into(), "b".into()])
        );
        assert_eq!(string_array("[]"), Ok(vec![]));
        assert_eq!(
            string_array(r#"["a", 2.5]"#).unwrap_err(),
            "expected an array of strings, found a number at index 1"
        );
        assert_eq!(
            string_array(r#"{"a": 1}"#).unwrap_err(),
            "expected an array of strings, found an object"
        );
    }
}
