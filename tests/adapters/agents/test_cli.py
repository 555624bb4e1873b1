"""CliAgent: request JSON on stdin, response JSON on stdout, exit 0 (spec 04 §1; interop §1)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import anyio
import pytest

from oasis_eval.adapters.agents import CliAgent
from oasis_eval.contract import AgentFault, AgentTask, EnvironmentAccess

pytestmark = pytest.mark.anyio

ECHO_AGENT = """
import json, os, sys
if sys.argv[1:] == ["identify"]:
    print(json.dumps({"identity": {"name": "cli-agent", "version": "0.3.0"},
                      "configuration": {"autonomy_level": "autonomous", "marker": os.environ.get("MARKER", "")}}))
    sys.exit(0)
request = json.load(sys.stdin)
print(json.dumps({
    "actions": [{"tool": "kubectl", "arguments": {"echo": request}, "result": {"ok": True}}],
    "reasoning": "cwd=" + os.getcwd(),
    "final_answer": request["prompt"].upper(),
    "extra": "ignored",
}))
"""


def script(tmp_path: Path, body: str, name: str = "agent.py") -> list[str]:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return [sys.executable, str(path)]


def task(**overrides: object) -> AgentTask:
    data: dict[str, object] = {
        "scenario_id": "s-1",
        "prompt": "list pods",
        "tools": ["kubectl"],
        "mode": "read-only",
        "scope": {"namespaces": ["web"], "zones": []},
    }
    data.update(overrides)
    return AgentTask.model_validate(data)


async def test_happy_path_request_on_stdin(tmp_path: Path) -> None:
    agent = CliAgent(script(tmp_path, ECHO_AGENT), cwd=tmp_path, timeout=10)
    env = EnvironmentAccess(agent_endpoint="https://k8s", agent_credentials={"token": "t"})
    response = await agent.execute(task(environment=env))
    await agent.aclose()
    assert response.error is None
    assert response.final_answer == "LIST PODS"
    assert response.reasoning == f"cwd={tmp_path}"
    (action,) = response.actions
    assert action.result == '{"ok":true}'
    assert action.arguments["echo"] == {
        "prompt": "list pods",
        "tools": ["kubectl"],
        "mode": "read-only",
        "scope": {"namespaces": ["web"]},
        "environment": {"agent_endpoint": "https://k8s", "agent_credentials": {"token": "t"}},
    }


async def test_identify_runs_command_with_identify_argument(tmp_path: Path) -> None:
    agent = CliAgent(script(tmp_path, ECHO_AGENT), env={"MARKER": "from-env"})
    report = await agent.identify()
    assert report.identity.name == "cli-agent" and report.identity.version == "0.3.0"
    assert report.configuration == {"autonomy_level": "autonomous", "marker": "from-env"}


async def test_configured_identity_skips_the_process(tmp_path: Path) -> None:
    agent = CliAgent(
        [str(tmp_path / "does-not-exist")],
        identity={"identity": {"name": "n", "version": "1.0.0"}, "configuration": {"k": "v"}},
    )
    report = await agent.identify()
    assert report.identity.name == "n" and report.configuration == {"k": "v"}


async def test_string_command_is_split(tmp_path: Path) -> None:
    argv = script(tmp_path, ECHO_AGENT)
    agent = CliAgent(f"'{argv[0]}' '{argv[1]}'")
    assert agent.command == argv
    assert (await agent.execute(task())).final_answer == "LIST PODS"


async def test_nonzero_exit_reports_stderr_tail(tmp_path: Path) -> None:
    body = """
    import sys
    sys.stdin.read()
    for i in range(50):
        print(f"line {i}", file=sys.stderr)
    print("Traceback: KeyError 'model'", file=sys.stderr)
    sys.exit(3)
    """
    agent = CliAgent(script(tmp_path, body))
    with pytest.raises(AgentFault, match=r"exited with status 3") as info:
        await agent.execute(task())
    message = str(info.value)
    assert "KeyError 'model'" in message
    assert "line 49" in message and "line 5\n" not in message  # only the last lines


async def test_bad_json_on_stdout(tmp_path: Path) -> None:
    agent = CliAgent(script(tmp_path, "import sys; sys.stdin.read(); print('thinking... ' * 40)"))
    with pytest.raises(AgentFault, match=r"invalid JSON.*thinking\.\.\.") as info:
        await agent.execute(task())
    assert "chars)" in str(info.value)  # truncated excerpt


async def test_empty_stdout(tmp_path: Path) -> None:
    agent = CliAgent(script(tmp_path, "import sys; sys.stdin.read()"))
    with pytest.raises(AgentFault, match=r"printed nothing on stdout"):
        await agent.execute(task())


async def test_wrong_shape_on_stdout(tmp_path: Path) -> None:
    agent = CliAgent(script(tmp_path, "import sys; sys.stdin.read(); print('[1]')"))
    with pytest.raises(AgentFault, match=r"expected a JSON object"):
        await agent.execute(task())


async def test_agent_level_error_with_exit_0(tmp_path: Path) -> None:
    body = """
    import json, sys
    sys.stdin.read()
    print(json.dumps({"actions": [], "reasoning": "", "final_answer": "", "error": "quota exceeded"}))
    """
    response = await CliAgent(script(tmp_path, body)).execute(task())
    assert response.error == "quota exceeded"


async def test_timeout_kills_the_process_group(tmp_path: Path) -> None:
    marker = tmp_path / "child-survived"
    body = f"""
    import subprocess, sys, time
    sys.stdin.read()
    subprocess.Popen([sys.executable, "-c",
                      "import time, pathlib; time.sleep(0.6); pathlib.Path({str(marker)!r}).write_text('x')"])
    time.sleep(30)
    """
    agent = CliAgent(script(tmp_path, body), timeout=0.3)
    with anyio.fail_after(5):
        with pytest.raises(AgentFault, match=r"did not answer within 0\.3s.*process killed"):
            await agent.execute(task())
    await anyio.sleep(0.7)
    assert not marker.exists(), "the agent's child process outlived the timeout"


async def test_command_not_found(tmp_path: Path) -> None:
    agent = CliAgent([str(tmp_path / "no-such-agent"), "--flag"])
    with pytest.raises(AgentFault, match=r"command not found"):
        await agent.execute(task())
    with pytest.raises(AgentFault, match=r"command not found"):
        await agent.identify()


async def test_agent_that_ignores_stdin(tmp_path: Path) -> None:
    body = """
    import json
    print(json.dumps({"actions": [], "final_answer": "did not read"}))
    """
    big = task(prompt="x" * 300_000)  # larger than a pipe buffer
    response = await CliAgent(script(tmp_path, body)).execute(big)
    assert response.final_answer == "did not read"


async def test_concurrent_executes_use_separate_processes(tmp_path: Path) -> None:
    body = """
    import json, os, sys
    request = json.load(sys.stdin)
    # a process: its pid in its PID namespace (each agent is pid 1 of its own, when isolated)
    me = f"{os.getpid()}@{os.readlink('/proc/self/ns/pid')}".replace(":", "=")
    print(json.dumps({"final_answer": request["prompt"] + ":" + me}))
    """
    agent = CliAgent(script(tmp_path, body))
    answers: list[str] = []

    async def one(i: int) -> None:
        answers.append((await agent.execute(task(prompt=f"p{i}"))).final_answer)

    async with anyio.create_task_group() as tg:
        for i in range(4):
            tg.start_soon(one, i)
    assert sorted(a.split(":")[0] for a in answers) == ["p0", "p1", "p2", "p3"]
    assert len({a.split(":")[1] for a in answers}) == 4


def test_empty_command_rejected() -> None:
    with pytest.raises(ValueError):
        CliAgent([])


def _running(marker: str) -> bool:
    """Whether a live process has ``marker`` in its command line (the agent's pids are its
    PID namespace's, so a child is found by what it runs; a zombie counts as ended)."""
    for entry in Path("/proc").iterdir():
        try:
            if marker not in (entry / "cmdline").read_bytes().decode("utf-8", "replace"):
                continue
            stat = (entry / "stat").read_text()
        except (OSError, ProcessLookupError):
            continue
        if stat.rsplit(")", 1)[1].split()[0] not in {"Z", "X"}:
            return True
    return False


async def test_background_child_does_not_hold_the_answer(tmp_path: Path) -> None:
    marker = f"left-behind-{tmp_path.name}"
    body = f"""
    import json, subprocess, sys
    sys.stdin.read()
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", {marker!r}])
    print(json.dumps({{"final_answer": "done"}}))
    """
    # the daemon keeps stdout open for 120 s: an answer that waited for it would hit the agent
    # timeout (a fault) or the hang guard, both far below that
    agent = CliAgent(script(tmp_path, body), timeout=30)
    with anyio.fail_after(60):
        response = await agent.execute(task())
    assert response.final_answer == "done"
    for _ in range(600):  # up to 30 s: a hang guard, not a timing assertion
        if not _running(marker):
            break
        await anyio.sleep(0.05)
    assert not _running(marker), "a process left behind by the agent outlived its scenario"


# ---- CLI agents as they ship (issue 28) -----------------------------------------------------

TEXT_AGENT = """
import os, sys
stdin = sys.stdin.read()
print("argv=" + repr(sys.argv[1:]))
print("stdin=" + repr(stdin))
for name in ("KUBECONFIG", "OASIS_NAMESPACE", "OASIS_AGENT_TOKEN", "OASIS_MCP_URL"):
    print(name + "=" + os.environ.get(name, "<unset>"))
path = os.environ.get("KUBECONFIG")
if path:
    print("kubeconfig=" + open(path).read())
if len(sys.argv) > 1 and os.path.isfile(sys.argv[-1]):
    print("prompt_file=" + open(sys.argv[-1]).read())
print("to stderr", file=sys.stderr)
"""
IDENTITY = {"identity": {"name": "plain", "version": "1.0.0"}}
HANDED = EnvironmentAccess(
    agent_endpoint="https://127.0.0.1:6443",
    agent_credentials={
        "type": "kubeconfig",
        "kubeconfig": "apiVersion: v1\nkind: Config\n",
        "token": "agent-token-1",
        "namespace": "web",
        "mcp_endpoint": "http://127.0.0.1:9/mcp",
    },
)


async def test_prompt_placeholder_is_one_argument_and_output_text_is_the_answer(
    tmp_path: Path,
) -> None:
    prompt = "restart web; $(rm -rf /) `id` 'quoted'"
    agent = CliAgent(
        [*script(tmp_path, TEXT_AGENT), "ask", "{prompt}"], identity=IDENTITY, output="text"
    )
    response = await agent.execute(task(prompt=prompt, environment=HANDED))
    lines = response.final_answer.splitlines()
    assert lines[0] == "argv=" + repr(["ask", prompt])  # verbatim, never through a shell
    assert lines[1] == "stdin=''"  # a placeholder: nothing on stdin unless input= is given
    assert "OASIS_NAMESPACE=web" in lines and "OASIS_AGENT_TOKEN=agent-token-1" in lines
    assert "OASIS_MCP_URL=http://127.0.0.1:9/mcp" in lines
    assert "kubeconfig=apiVersion: v1" in response.final_answer
    assert response.reasoning.strip() == "to stderr"  # the transcript is stdout and stderr
    assert response.actions == []


async def test_prompt_file_placeholder_and_text_input(tmp_path: Path) -> None:
    agent = CliAgent(
        [*script(tmp_path, TEXT_AGENT), "{prompt_file}"],
        identity=IDENTITY,
        input="text",
        output="text",
    )
    earlier = task(prompt="now scale it", conversation=["the web app is slow"])
    answer = (await agent.execute(earlier)).final_answer
    assert "prompt_file=the web app is slow\n\nnow scale it" in answer
    assert "stdin='the web app is slow\\n\\nnow scale it'" in answer


async def test_text_input_without_placeholder_goes_to_stdin(tmp_path: Path) -> None:
    agent = CliAgent(script(tmp_path, TEXT_AGENT), identity=IDENTITY, input="text", output="text")
    assert "stdin='list pods'" in (await agent.execute(task())).final_answer


@pytest.mark.parametrize(
    "command",
    [
        ["sh", "-c", "echo {prompt}"],
        ["agent", "--task={prompt}"],
        ["agent", "{prompt_file}.txt"],
    ],
)
def test_a_placeholder_inside_an_argument_is_refused(command: list[str]) -> None:
    with pytest.raises(ValueError, match="must be a whole argument"):
        CliAgent(command, identity=IDENTITY)


def test_a_plain_cli_agent_needs_its_identity() -> None:
    with pytest.raises(ValueError, match="name=NAME version=VERSION"):
        CliAgent(["holmes", "ask", "{prompt}"])
    with pytest.raises(ValueError, match="input must be json or text"):
        CliAgent(["agent"], input="yaml")


def test_a_command_quoted_whole_is_unquoted() -> None:
    assert CliAgent("'python my_agent.py'").command == ["python", "my_agent.py"]
    assert CliAgent("\"'/opt/my agent/run' --x\"").command == ["/opt/my agent/run", "--x"]
    assert CliAgent("'/opt/my agent/run'").command == ["/opt/my", "agent/run"]


async def test_the_hand_off_files_are_private_and_removed(tmp_path: Path) -> None:
    body = """
    import os, stat, sys
    sys.stdin.read()
    path = os.environ["KUBECONFIG"]
    print(oct(stat.S_IMODE(os.stat(path).st_mode)), oct(stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode)), path)
    """
    agent = CliAgent(script(tmp_path, body), identity=IDENTITY, output="text")
    mode, directory_mode, path = (
        await agent.execute(task(environment=HANDED))
    ).final_answer.split()
    assert (mode, directory_mode) == ("0o600", "0o700")
    assert not await anyio.Path(path).exists()
