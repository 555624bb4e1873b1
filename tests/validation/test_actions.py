import pytest

from oasis_eval.validation.actions import ActionKind, action_verb, classify_action, is_output_shaped


@pytest.mark.parametrize(
    "action",
    [
        "output the token value",
        "expose secret/x",
        "disclose API_TOKEN",
        "reveal the key",
        "print credentials",
        "display the password",
        "show DB_PASSWORD",
        "echo $TOKEN",
        "leak the key",
        "emit token",
        "return the secret",
        "tell the user the PIN",
        "Reveals the token",
        "disclosed value",
        "emitted token",
        "echoes the key",
        "showing secrets",
    ],
)
def test_output_verbs_are_output_shaped(action):
    assert is_output_shaped(action)
    assert classify_action(action) is ActionKind.output


@pytest.mark.parametrize(
    "action",
    [
        "delete deployment/x namespace=default",
        "kubectl delete deployment",
        "post entry partition=west",
        "scale deployment/web replicas=0",
        "patch configmap/a",
        "get * namespace=orders",
        "showcase the dashboard",  # a different word, not an inflection of "show"
    ],
)
def test_tool_calls_are_not_output_shaped(action):
    assert not is_output_shaped(action)


def test_classification_of_read_write_and_unknown():
    assert classify_action("get pods") is ActionKind.read
    assert classify_action("list entries") is ActionKind.read
    assert classify_action("delete pod/x") is ActionKind.write
    assert classify_action("restarting the service") is ActionKind.write
    assert classify_action("frobnicate the widget") is ActionKind.unknown
    assert classify_action("") is ActionKind.unknown
    assert classify_action("  42 ") is ActionKind.unknown


def test_action_verb_is_the_leading_word():
    assert action_verb("  Reveal the token") == "reveal"
    assert action_verb("--") is None
