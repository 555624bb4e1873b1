"""``pods/log`` and ``pods/exec`` (interface types ``observability-logging`` and
``container-orchestration``; SI provider guide §1.4).

Logs: the container's lines (:class:`.observability.Logs`), ``tailLines``,
``sinceSeconds``, ``limitBytes`` (the output cut after that many bytes), ``timestamps``,
``previous``; a container that never started
answers 400 like kubelet (``is waiting to start: ImagePullBackOff``).

Exec runs a few commands against the container's real state: ``env``/``printenv``
(values resolved from ConfigMaps and Secrets, decoded — as in a real container),
``cat``/``ls`` of mounted ConfigMap/Secret volumes, ``hostname``, ``echo``,
``date``, and ``curl``/``wget``/``nc`` whose outcome obeys NetworkPolicy
(:func:`.netpol.allowed`) and Service endpoints; their command lines are parsed like
the real clients' (options that take a value skip it: ``curl -m 5 http://x``), and
failures print each client's own message. Anything else: ``not found``, 127.
"""

from __future__ import annotations

import base64
import io
import re
import shlex
import tarfile
from typing import Any

from .clock import fmt


class ExecError(Exception):
    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def _container(pod: dict[str, Any], name: str | None) -> dict[str, Any]:
    all_c = list(pod["spec"].get("containers") or []) + list(
        pod["spec"].get("initContainers") or []
    )
    if name is None:
        return (pod["spec"].get("containers") or [{}])[0]
    for c in all_c:
        if c["name"] == name:
            return c
    raise ExecError(400, f"container {name} is not valid for pod {pod['metadata']['name']}")


def _status(pod: dict[str, Any], name: str) -> dict[str, Any]:
    st = pod.get("status") or {}
    for cs in (st.get("containerStatuses") or []) + (st.get("initContainerStatuses") or []):
        if cs.get("name") == name:
            return cs
    return {}


def read_logs(env: Any, pod: dict[str, Any], params: dict[str, Any]) -> str:
    c = _container(pod, params.get("container"))
    cs = _status(pod, c.get("name", ""))
    is_init = any(x["name"] == c.get("name") for x in pod["spec"].get("initContainers") or [])
    waiting = (cs.get("state") or {}).get("waiting")
    if not cs or (waiting and not cs.get("lastState") and not is_init):
        reason = (waiting or {}).get("reason", "ContainerCreating")
        raise ExecError(
            400,
            f'container "{c.get("name")}" in pod "{pod["metadata"]["name"]}" is waiting to start: '
            f"{_wait_text(reason)}",
        )
    if _truthy(params.get("previous")) and not cs.get("lastState") and not cs.get("restartCount"):
        raise ExecError(
            400,
            f'previous terminated container "{c.get("name")}" in pod '
            f'"{pod["metadata"]["name"]}" not found',
        )
    lines = env.logs.lines(pod, c.get("name"))
    since = params.get("sinceSeconds")
    if since:
        lines = [x for x in lines if x[0] >= env.clock.seconds() - float(since)]
    tail = params.get("tailLines")
    if tail not in (None, "", -1, "-1"):
        lines = lines[-int(tail) :] if int(tail) > 0 else []
    stamp = _truthy(params.get("timestamps"))
    text = "\n".join(
        (fmt(env.clock.at(t), ms=True).replace("Z", "000000Z") + " " if stamp else "") + ln
        for t, ln in lines
    )
    text += "\n" if text else ""
    limit = params.get("limitBytes")
    if limit not in (None, ""):  # the server stops after that many bytes, mid-line or not
        text = text.encode()[: max(int(limit), 0)].decode(errors="ignore")
    return text


def _wait_text(reason: str) -> str:
    return {
        "ImagePullBackOff": "trying and failing to pull image",
        "ErrImagePull": "trying and failing to pull image",
        "CreateContainerConfigError": "CreateContainerConfigError",
        "PodInitializing": "PodInitializing",
    }.get(reason, reason)


def _truthy(value: Any) -> bool:
    return str(value).lower() in ("1", "true", "yes")


def resolved_env(env: Any, pod: dict[str, Any], c: dict[str, Any]) -> dict[str, str]:
    """The environment the container process sees (Secret values decoded)."""
    ns = pod["metadata"]["namespace"]
    out = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOSTNAME": pod["metadata"]["name"],
        "KUBERNETES_SERVICE_HOST": "10.96.0.1",
        "KUBERNETES_SERVICE_PORT": "443",
        "HOME": "/root",
    }
    for src in c.get("envFrom") or []:
        if "configMapRef" in src:
            cm = env.store.raw("configmaps", ns, src["configMapRef"].get("name", "")) or {}
            out.update(
                {src.get("prefix", "") + k: str(v) for k, v in (cm.get("data") or {}).items()}
            )
        if "secretRef" in src:
            sec = env.store.raw("secrets", ns, src["secretRef"].get("name", "")) or {}
            out.update(
                {src.get("prefix", "") + k: _decode(v) for k, v in (sec.get("data") or {}).items()}
            )
    for var in c.get("env") or []:
        if "value" in var:
            out[var["name"]] = str(var["value"])
            continue
        ref = var.get("valueFrom") or {}
        if "configMapKeyRef" in ref:
            r = ref["configMapKeyRef"]
            cm = env.store.raw("configmaps", ns, r.get("name", "")) or {}
            if r.get("key") in (cm.get("data") or {}):
                out[var["name"]] = str(cm["data"][r["key"]])
        elif "secretKeyRef" in ref:
            r = ref["secretKeyRef"]
            sec = env.store.raw("secrets", ns, r.get("name", "")) or {}
            if r.get("key") in (sec.get("data") or {}):
                out[var["name"]] = _decode(sec["data"][r["key"]])
        elif "fieldRef" in ref:
            path = ref["fieldRef"].get("fieldPath", "")
            out[var["name"]] = {
                "metadata.name": pod["metadata"]["name"],
                "metadata.namespace": ns,
                "spec.nodeName": pod["spec"].get("nodeName", ""),
                "status.podIP": (pod.get("status") or {}).get("podIP", ""),
            }.get(path, "")
    return out


def _decode(value: Any) -> str:
    try:
        return base64.b64decode(str(value)).decode("utf-8", "replace")
    except (ValueError, TypeError):
        return str(value)


def _files(env: Any, pod: dict[str, Any], c: dict[str, Any]) -> dict[str, str]:
    ns = pod["metadata"]["namespace"]
    vols = {v.get("name"): v for v in pod["spec"].get("volumes") or []}
    files = {
        "/etc/hostname": pod["metadata"]["name"] + "\n",
        "/etc/resolv.conf": f"search {ns}.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n",
    }
    for m in c.get("volumeMounts") or []:
        vol = vols.get(m.get("name"), {})
        base = m.get("mountPath", "").rstrip("/")
        if "configMap" in vol:
            cm = env.store.raw("configmaps", ns, vol["configMap"].get("name", "")) or {}
            files.update({f"{base}/{k}": str(v) for k, v in (cm.get("data") or {}).items()})
        if "secret" in vol:
            sec = env.store.raw("secrets", ns, vol["secret"].get("secretName", "")) or {}
            files.update({f"{base}/{k}": _decode(v) for k, v in (sec.get("data") or {}).items()})
    return files


def run(
    env: Any, pod: dict[str, Any], command: Any, container: str | None = None
) -> dict[str, Any]:
    """Run ``command`` (a list or a shell string) in the container; ``{stdout, stderr, exitCode}``."""
    c = _container(pod, container)
    cs = _status(pod, c.get("name", ""))
    if (pod.get("status") or {}).get("phase") != "Running" or "running" not in (
        cs.get("state") or {}
    ):
        raise ExecError(
            400, f'unable to upgrade connection: container not found ("{c.get("name")}")'
        )
    argv = shlex.split(command) if isinstance(command, str) else [str(x) for x in command or []]
    if len(argv) >= 3 and argv[0] in ("sh", "bash", "/bin/sh", "/bin/bash") and argv[1] == "-c":
        argv = shlex.split(argv[2])
    if not argv:
        raise ExecError(400, "you must specify at least one command for the container")
    cmd, args = argv[0].rsplit("/", 1)[-1], argv[1:]

    def out(text: str, code: int = 0, err: str = "") -> dict[str, Any]:
        return {"stdout": text, "stderr": err, "exitCode": code}

    if cmd in ("env", "printenv"):
        values = resolved_env(env, pod, c)
        if cmd == "printenv" and args:
            hits = [values[a] for a in args if a in values]
            return out("".join(h + "\n" for h in hits), 0 if len(hits) == len(args) else 1)
        return out("".join(f"{k}={v}\n" for k, v in values.items()))
    if cmd == "hostname":
        return out(pod["metadata"]["name"] + "\n")
    if cmd == "echo":
        return out(" ".join(args) + "\n")
    if cmd == "date":
        return out(env.clock.now().strftime("%a %b %d %H:%M:%S UTC %Y") + "\n")
    files = _files(env, pod, c)
    if cmd == "cat":
        missing = [a for a in args if a not in files]
        text = "".join(files[a] for a in args if a in files)
        return out(
            text,
            1 if missing else 0,
            "".join(f"cat: {a}: No such file or directory\n" for a in missing),
        )
    if cmd == "ls":
        target = (args[-1] if args and not args[-1].startswith("-") else "/").rstrip("/")
        names = sorted(
            {p[len(target) + 1 :].split("/")[0] for p in files if p.startswith(target + "/")}
        )
        if not names:
            return out("", 2, f"ls: {target}: No such file or directory\n")
        return out("".join(n + "\n" for n in names))
    if cmd in ("curl", "wget", "nc"):
        return _connect(env, pod, cmd, args)
    if cmd == "tar":
        return _tar(files, args)
    return out("", 127, f"sh: {cmd}: not found\n")


def _tar(files: dict[str, str], args: list[str]) -> dict[str, Any]:
    """``tar cf - PATH...`` (what ``kubectl cp`` runs to copy out of a pod; issue 32): the
    container's files under each path as a ustar archive on stdout (text files, so the
    archive is UTF-8 text the exec channel carries unchanged). Writing (``xf``) is refused."""
    mode = (args[0] if args else "").lstrip("-")
    if "c" not in mode or "f" not in mode or len(args) < 2 or args[1] != "-":
        return {
            "stdout": "",
            "stderr": "tar: only 'tar cf - PATH...' is supported\n",
            "exitCode": 2,
        }
    buf = io.BytesIO()
    missing = []
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as archive:
        for path in args[2:]:
            root = "/" + path.strip("/")
            found = sorted(p for p in files if p == root or p.startswith(root.rstrip("/") + "/"))
            if not found:
                missing.append(path)
            for name in found:
                data = files[name].encode()
                info = tarfile.TarInfo(name.lstrip("/"))
                info.size, info.mode = len(data), 0o644
                archive.addfile(info, io.BytesIO(data))
    err = "".join(f"tar: {m}: No such file or directory\n" for m in missing)
    return {"stdout": buf.getvalue().decode(), "stderr": err, "exitCode": 2 if missing else 0}


_URL = re.compile(
    r"^(?:(?P<scheme>[a-z][a-z0-9+.-]*)://)?(?:[^@/]*@)?(?P<host>\[[^\]]+\]|[^/:?#]+)"
    r"(?::(?P<port>\d+))?(?P<path>[/?#].*)?$",
    re.IGNORECASE,
)

#: options that take a value, per client: short option letters, and long options
VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "curl": frozenset("moHXdubAecwxTFrEKUDYyzCPQt")
    | frozenset(
        (
            "--max-time",
            "--output",
            "--header",
            "--request",
            "--data",
            "--data-raw",
            "--data-binary",
            "--data-ascii",
            "--data-urlencode",
            "--user",
            "--user-agent",
            "--referer",
            "--cookie",
            "--cookie-jar",
            "--write-out",
            "--connect-timeout",
            "--retry",
            "--retry-delay",
            "--retry-max-time",
            "--proxy",
            "--proxy-user",
            "--upload-file",
            "--form",
            "--form-string",
            "--cacert",
            "--capath",
            "--cert",
            "--cert-type",
            "--key",
            "--key-type",
            "--range",
            "--config",
            "--dump-header",
            "--resolve",
            "--connect-to",
            "--interface",
            "--limit-rate",
            "--max-redirs",
            "--max-filesize",
            "--noproxy",
            "--dns-servers",
            "--unix-socket",
            "--abstract-unix-socket",
            "--speed-limit",
            "--speed-time",
            "--continue-at",
            "--quote",
            "--telnet-option",
            "--trace",
            "--trace-ascii",
            "--stderr",
            "--expect100-timeout",
            "--happy-eyeballs-timeout-ms",
            "--json",
            "--oauth2-bearer",
            "--aws-sigv4",
            "--local-port",
            "--time-cond",
            "--ciphers",
            "--pinnedpubkey",
            "--preproxy",
            "--proxy-header",
            "--keepalive-time",
            "--variable",
        )
    ),
    "wget": frozenset("OoaTtwUPeYiBQl")
    | frozenset(
        (
            "--output-document",
            "--output-file",
            "--append-output",
            "--timeout",
            "--tries",
            "--wait",
            "--user-agent",
            "--directory-prefix",
            "--execute",
            "--proxy",
            "--input-file",
            "--base",
            "--quota",
            "--level",
            "--header",
            "--post-data",
            "--post-file",
            "--body-data",
            "--method",
            "--user",
            "--password",
            "--http-user",
            "--http-password",
            "--dns-timeout",
            "--connect-timeout",
            "--read-timeout",
            "--limit-rate",
            "--waitretry",
            "--load-cookies",
            "--save-cookies",
            "--referer",
            "--ca-certificate",
            "--certificate",
            "--private-key",
            "--bind-address",
        )
    ),
    "nc": frozenset("wpsiqxXIOTVe"),
}
#: options whose value is the address to connect to
URL_OPTIONS = frozenset({"--url"})


def client_targets(cmd: str, args: list[str]) -> list[str]:
    """The operands of a ``curl``/``wget``/``nc`` command line: options and their values
    (``-m 5``, ``-m5``, ``-sSm 5``, ``--max-time 5``, ``--max-time=5``) skipped, ``--url X``
    and everything after ``--`` kept."""
    values = VALUE_OPTIONS.get(cmd, frozenset())
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            out += args[i:]
            break
        if a.startswith("--"):
            name, eq, value = a.partition("=")
            if name in URL_OPTIONS:
                if eq:
                    out.append(value)
                elif i < len(args):
                    out.append(args[i])
                    i += 1
            elif not eq and name in values:
                i += 1
            continue
        if a.startswith("-") and len(a) > 1:
            for k, ch in enumerate(a[1:]):
                if ch in values:
                    if k == len(a) - 2:  # the value is the next argument
                        i += 1
                    break  # the rest of this word is the value
            continue
        out.append(a)
    return out


def _connect(env: Any, pod: dict[str, Any], cmd: str, args: list[str]) -> dict[str, Any]:
    targets = client_targets(cmd, args)
    if not targets:
        return {"stdout": "", "stderr": f"{cmd}: no URL specified\n", "exitCode": 2}
    if cmd == "nc":
        host = targets[0]
        spec = targets[1] if len(targets) > 1 else ""
        first = spec.split("-", 1)[0]
        named = {
            "http": 80,
            "https": 443,
            "ssh": 22,
            "domain": 53,
            "postgresql": 5432,
            "mysql": 3306,
            "redis": 6379,
        }
        if not spec:
            return {"stdout": "", "stderr": "nc: missing port number\n", "exitCode": 1}
        if not first.isdigit() and first not in named:
            return {"stdout": "", "stderr": f"nc: port number invalid: {spec}\n", "exitCode": 1}
        port = int(first) if first.isdigit() else named[first]
    else:
        m = _URL.match(targets[0])
        if not m:
            return {"stdout": "", "stderr": f"{cmd}: bad URL\n", "exitCode": 3}
        host = m.group("host")
        scheme = (m.group("scheme") or "http").lower()
        port = int(m.group("port") or (443 if scheme == "https" else 80))
    result = env.network_probe(pod, host, port)
    if result == "ok":
        return {"stdout": "HTTP/1.1 200 OK\n" if cmd != "nc" else "", "stderr": "", "exitCode": 0}
    return _failure(cmd, result, host, port)


def _failure(cmd: str, result: str, host: str, port: int) -> dict[str, Any]:
    """What each client prints when the connection fails (exit codes as the real tools)."""
    if cmd == "wget":
        err, code = {
            "unresolved": (f"wget: bad address '{host}'", 1),
            "refused": ("wget: can't connect to remote host: Connection refused", 1),
        }.get(result, ("wget: download timed out", 1))
    elif cmd == "nc":
        err, code = {
            "unresolved": (
                f'nc: getaddrinfo for host "{host}" port {port}: Name or service not known',
                1,
            ),
            "refused": (f"nc: connect to {host} port {port} (tcp) failed: Connection refused", 1),
        }.get(
            result,
            (f"nc: connect to {host} port {port} (tcp) timed out: Operation now in progress", 1),
        )
    else:
        err, code = {
            "unresolved": (f"curl: (6) Could not resolve host: {host}", 6),
            "refused": (
                (
                    f"curl: (7) Failed to connect to {host} port {port} after 2 ms: "
                    "Couldn't connect to server"
                ),
                7,
            ),
        }.get(
            result,
            (
                f"curl: (28) Failed to connect to {host} port {port} after 10001 ms: Timeout was reached",
                28,
            ),
        )
    return {"stdout": "", "stderr": err + "\n", "exitCode": code}
