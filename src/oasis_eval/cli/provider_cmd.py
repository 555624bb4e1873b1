"""``oasis provider``: serve an installed environment provider over petri's ``/v1`` HTTP API,
and list the providers.

Servable providers are found through the entry point group ``oasis_eval.provider_servers``
(:class:`~oasis_eval.contract.ProviderServer`); the simulator package registers ``sim-k8s``.

``oasis provider serve sim-k8s [--host 127.0.0.1] [--port 8765] [--agent-port 0]
[--token T | --no-auth] [--token-file PATH]
[--fault audit-unreachable|observe-error|audit-empty|audit-drop-agent|audit-drop-setup|teardown-in-progress ...]
[--provision-error-rate R] [--seed N] [--allow-remote] [--max-body-bytes N]
[--max-state-entries N] [--idle-ttl SECONDS]`` runs uvicorn until interrupted and prints
the URL first (``--port 0`` picks a free port; the printed URL has the real one). Only
loopback addresses are served unless ``--allow-remote``.

Isolation (issue 11 H1, core §3.6): the runner API (``/v1``)
listens on ``--port`` and needs a runner token — ``--token``/``OASIS_PROVIDER_TOKEN``, or
one generated per serve, written to ``--token-file`` (mode 0600) or else printed once;
``--no-auth`` is the only way to open it and is warned about. The agents' MCP endpoint
listens on its own port (``--agent-port``), which is all an agent is ever told. A port
that cannot be bound is a usage error naming it (exit 2).
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import os
import secrets
import socket
import sys
from dataclasses import dataclass, field

import typer

from ..adapters.providers import known_provider_types, provider_servers
from ..contract import (
    DEFAULT_IDLE_TTL,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_STATE_ENTRIES,
    ProviderServer,
    ServeOptions,
)
from ..diagnostics import UnusableInput
from ..exit_codes import EXIT_PASS, EXIT_USAGE
from ..profiles.loader import load_profile
from ..spec.profile import Profile
from .output import echo_findings

app = typer.Typer(
    help="Environment providers: serve a built-in one over HTTP (petri-compatible /v1 API), list them.",
    no_args_is_help=True,
)

TOKEN_ENV = "OASIS_PROVIDER_TOKEN"
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP literals (127.0.0.0/8, ::1)."""
    name = host.strip().strip("[]").lower()
    if name in ("localhost", "localhost.localdomain", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass
class ServeConfig:
    """Everything ``serve`` needs, validated (see :func:`build_serve_config`)."""

    provider: str
    host: str
    port: int
    token: str | None = None
    faults: list[str] = field(default_factory=list)
    provision_error_rate: float = 0.0
    seed: int = 0
    allow_remote: bool = False
    retry_after: float | None = 1.0
    log_level: str = "info"
    no_auth: bool = False
    token_file: str | None = None
    agent_port: int = 0
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_state_entries: int = DEFAULT_MAX_STATE_ENTRIES
    idle_ttl: float = DEFAULT_IDLE_TTL
    #: how the runner token was handed over (printed at start)
    token_note: str = ""
    #: ``--profile PATH``, loaded: the one profile the provider serves
    profile: Profile | None = None

    def url(self, port: int | None = None) -> str:
        host = self.host
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"http://{host}:{self.port if port is None else port}"

    def options(self, agent_url: str | None = None) -> ServeOptions:
        """The provider's view of this configuration (``agent_url``: its agent listener)."""
        return ServeOptions(
            token=self.token,
            auth=not self.no_auth,
            faults=tuple(self.faults),
            provision_error_rate=self.provision_error_rate,
            seed=self.seed,
            retry_after=self.retry_after,
            max_body_bytes=self.max_body_bytes,
            max_state_entries=self.max_state_entries,
            idle_ttl=self.idle_ttl or None,
            agent_url=agent_url,
            profile=self.profile,
        )

    @property
    def server(self) -> ProviderServer:
        return provider_servers()[self.provider]


def build_serve_config(
    provider: str,
    host: str = "127.0.0.1",
    port: int = 8765,
    token: str | None = None,
    faults: list[str] | None = None,
    provision_error_rate: float = 0.0,
    seed: int = 0,
    allow_remote: bool = False,
    retry_after: float | None = 1.0,
    log_level: str = "info",
    *,
    no_auth: bool = False,
    token_file: str | None = None,
    agent_port: int = 0,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    max_state_entries: int = DEFAULT_MAX_STATE_ENTRIES,
    idle_ttl: float = DEFAULT_IDLE_TTL,
) -> ServeConfig:
    """Validate the ``serve`` options; usage errors raise :class:`typer.BadParameter`."""
    broken: dict[str, str] = {}
    servers = provider_servers(broken)
    if provider in broken:
        raise typer.BadParameter(
            f"provider {provider!r} is installed but unusable: {broken[provider]}",
            param_hint="PROVIDER",
        )
    if provider not in servers:
        known = ", ".join(sorted(servers)) or "none installed (pip install oasis-sim-k8s)"
        raise typer.BadParameter(
            f"unknown provider {provider!r}; servable: {known}", param_hint="PROVIDER"
        )
    _check_address(host, allow_remote, port, agent_port)
    if no_auth and (token or token_file):
        raise typer.BadParameter(
            "--no-auth opens the runner API; it cannot be combined with a token",
            param_hint="--no-auth",
        )
    if max_body_bytes < 1024 or max_state_entries < 1 or idle_ttl < 0:
        raise typer.BadParameter(
            "--max-body-bytes must be >= 1024, --max-state-entries >= 1 and --idle-ttl >= 0",
            param_hint="--max-body-bytes/--max-state-entries/--idle-ttl",
        )
    names = _fault_names(servers[provider], faults, provision_error_rate)
    if retry_after is not None and retry_after < 0:
        raise typer.BadParameter("retry-after must be >= 0 seconds", param_hint="--retry-after")
    if log_level.lower() not in LOG_LEVELS:
        raise typer.BadParameter(
            f"log level must be one of {', '.join(LOG_LEVELS)}", param_hint="--log-level"
        )
    return ServeConfig(
        provider=provider,
        host=host.strip(),
        port=port,
        token=token or None,
        faults=list(dict.fromkeys(names)),
        provision_error_rate=provision_error_rate,
        seed=seed,
        allow_remote=allow_remote,
        retry_after=retry_after,
        log_level=log_level.lower(),
        no_auth=no_auth,
        token_file=token_file,
        agent_port=agent_port,
        max_body_bytes=max_body_bytes,
        max_state_entries=max_state_entries,
        idle_ttl=idle_ttl,
    )


def _check_address(host: str, allow_remote: bool, port: int, agent_port: int) -> None:
    """Loopback unless remote listening was asked for; two distinct valid ports."""
    if not host.strip():
        raise typer.BadParameter("host must not be empty", param_hint="--host")
    if not is_loopback(host) and not allow_remote:
        raise typer.BadParameter(
            f"{host!r} is not a loopback address; the simulated provider hands out cluster credentials "
            "to anyone who can reach it, so it serves 127.0.0.1/::1/localhost only. "
            "Pass --allow-remote (and --token) to listen on other interfaces.",
            param_hint="--host",
        )
    for value, hint in ((port, "--port"), (agent_port, "--agent-port")):
        if not 0 <= value <= 65535:
            raise typer.BadParameter(
                f"port must be between 0 and 65535, not {value}", param_hint=hint
            )
    if port and port == agent_port:
        raise typer.BadParameter("the agent listener needs its own port", param_hint="--agent-port")


def _fault_names(
    server: ProviderServer, faults: list[str] | None, provision_error_rate: float
) -> list[str]:
    """The ``--fault`` names (comma lists split), checked by the provider server."""
    names = [n.strip() for item in faults or [] for n in item.split(",") if n.strip()]
    try:
        server.check(ServeOptions(faults=tuple(names), provision_error_rate=provision_error_rate))
    except ValueError as exc:
        hint = "--provision-error-rate" if "rate" in str(exc) else "--fault"
        raise typer.BadParameter(str(exc), param_hint=hint) from None
    return names


@app.command("serve")
def serve(
    provider: str = typer.Argument(
        ..., metavar="PROVIDER", help="The provider to serve (oasis provider list)."
    ),
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Address to listen on (loopback only unless --allow-remote)."
    ),
    port: int = typer.Option(
        8765, "--port", help="Port of the runner API (0: pick a free one; the printed URL has it)."
    ),
    agent_port: int = typer.Option(
        0, "--agent-port", help="Port of the agents' MCP endpoint (0: a free one)."
    ),
    token: str | None = typer.Option(
        None,
        "--token",
        envvar=TOKEN_ENV,
        help=f"The runner token for /v1 (or set {TOKEN_ENV}); default: generated.",
    ),
    token_file: str | None = typer.Option(
        None,
        "--token-file",
        help="Write the runner token to this file (mode 0600) instead of printing it.",
    ),
    no_auth: bool = typer.Option(
        False,
        "--no-auth",
        help="Serve /v1 without a runner token (unsafe: any local "
        "process, an agent under test included, can call it).",
    ),
    fault: list[str] | None = typer.Option(
        None,
        "--fault",
        help="Inject a fault (repeatable); `oasis provider list` names each provider's faults.",
    ),
    provision_error_rate: float = typer.Option(
        0.0,
        "--provision-error-rate",
        help="Fraction of provisions that fail with a retryable 502 (seeded).",
    ),
    seed: int = typer.Option(
        0, "--seed", help="Seed for injected provision failures (environment ids are random)."
    ),
    retry_after: float = typer.Option(
        1.0, "--retry-after", help="retry_after_seconds on injected provision failures (seconds)."
    ),
    allow_remote: bool = typer.Option(
        False, "--allow-remote", help="Allow listening on a non-loopback address."
    ),
    max_body_bytes: int = typer.Option(
        DEFAULT_MAX_BODY_BYTES,
        "--max-body-bytes",
        help="Largest request body accepted (413 above it).",
    ),
    max_state_entries: int = typer.Option(
        DEFAULT_MAX_STATE_ENTRIES,
        "--max-state-entries",
        help="Most state entries per provision / inject-state (413 above it).",
    ),
    idle_ttl: float = typer.Option(
        DEFAULT_IDLE_TTL,
        "--idle-ttl",
        help="Tear down environments unused for this many seconds (0: never).",
    ),
    log_level: str = typer.Option(
        "info", "--log-level", help="uvicorn log level (access log at info)."
    ),
    profile: str | None = typer.Option(
        None,
        "--profile",
        help="Serve this profile only (a profile directory or file): preflight answers for its "
        "id and version, or supported: false with the requirements the provider cannot meet.",
    ),
) -> None:
    """Serve a built-in provider over petri's /v1 API until interrupted (Ctrl-C)."""
    cfg = build_serve_config(
        provider,
        host,
        port,
        token,
        fault,
        provision_error_rate,
        seed,
        allow_remote,
        retry_after,
        log_level,
        no_auth=no_auth,
        token_file=token_file,
        agent_port=agent_port,
        max_body_bytes=max_body_bytes,
        max_state_entries=max_state_entries,
        idle_ttl=idle_ttl,
    )
    if profile is not None:
        cfg.profile = _served_profile(profile)
    if cfg.no_auth:
        typer.echo(
            "WARNING: --no-auth: the runner API (/v1) is open to every process that can reach it, an agent "
            "under test included: it can tear down or tamper with environments and read their secrets. "
            "(Agents' own tokens are still refused.)",
            err=True,
        )
    try:
        sockets = [
            _bind(cfg.host, cfg.port, "--port"),
            _bind(cfg.host, cfg.agent_port, "--agent-port"),
        ]
    except OSError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    if not cfg.no_auth:
        _settle_token(cfg)
    try:
        code = asyncio.run(_serve(cfg, sockets))
    except KeyboardInterrupt:  # pragma: no cover - interactive
        code = EXIT_PASS
    raise typer.Exit(code)


def _served_profile(path: str) -> Profile:
    """``--profile``: the loaded profile, or exit 2 naming the file and what is wrong."""
    try:
        loaded = load_profile(path)
    except UnusableInput as exc:
        typer.echo(f"error: --profile {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    errors = [f for f in loaded.findings if f.severity.value == "error"]
    if loaded.profile is None or errors:
        echo_findings(loaded.findings)
        typer.echo(f"error: --profile {path}: the profile does not load (errors above)", err=True)
        raise typer.Exit(EXIT_USAGE)
    meta = loaded.profile.metadata
    typer.echo(f"serving profile {loaded.profile.id} {meta.version} only (--profile {path})")
    return loaded.profile


def _settle_token(cfg: ServeConfig) -> None:
    """The runner token (given or generated), written to ``--token-file`` if asked, and the
    note the banner shows about it; a token file that cannot be written exits with 2."""
    cfg.token, generated = cfg.token or secrets.token_urlsafe(32), not cfg.token
    if cfg.token_file:
        try:
            _write_secret(cfg.token_file, cfg.token)
        except OSError as exc:
            typer.echo(
                f"error: cannot write the runner token to {cfg.token_file}: {exc.strerror or exc}",
                err=True,
            )
            raise typer.Exit(EXIT_USAGE) from None
    cfg.token_note = (
        f"written to {cfg.token_file} (mode 0600)"
        if cfg.token_file
        else f"{cfg.token}  (shown once; give it to oasis run as {TOKEN_ENV} or --provider-token)"
        if generated
        else f"as given (--token / {TOKEN_ENV})"
    )


def _bind(host: str, port: int, option: str) -> socket.socket:
    """A listening socket on (host, port); OSError names the address and the option."""
    name = host.strip("[]")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise OSError(f"cannot listen on {host}:{port} ({option}): {exc.strerror or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        busy = (
            " (another process holds it; pick another port or 0 for a free one)"
            if exc.errno == errno.EADDRINUSE
            else ""
        )
        raise OSError(
            f"cannot listen on {host}:{port} ({option}): {exc.strerror or exc}{busy}"
        ) from None
    return sock


def _write_secret(path: str, value: str) -> None:
    """Write ``value`` to ``path`` readable by its owner only (0600, also when it existed)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (value + "\n").encode())
    finally:
        os.close(fd)


async def _serve(cfg: ServeConfig, sockets: list[socket.socket]) -> int:
    import uvicorn  # lazy: only `provider serve` needs the server (~15 ms)

    ports = [sock.getsockname()[1] for sock in sockets]
    url, agent_url = cfg.url(ports[0]), cfg.url(ports[1]) + "/mcp"
    if cfg.host.strip("[]") in (
        "0.0.0.0",
        "::",
    ):  # all interfaces: agents use the host the runner used
        agent_url = f"http://{{host}}:{ports[1]}/mcp"
    both = cfg.server.asgi_app(cfg.options(agent_url), ports[0], ports[1])
    config = uvicorn.Config(both, log_level=cfg.log_level, lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=sockets))
    while not server.started and not task.done():  # noqa: ASYNC110 - uvicorn offers no started event
        await asyncio.sleep(0.02)
    if server.started:
        typer.echo(f"{cfg.provider} provider serving on {url}")
        typer.echo(
            f"  runner API:   {url}/v1 (oasis run --provider {url})"
            + ("; NO AUTHENTICATION (--no-auth)" if cfg.no_auth else "; bearer token required")
        )
        if not cfg.no_auth:
            typer.echo(f"  runner token: {cfg.token_note}")
        typer.echo(
            f"  agent MCP:    {agent_url} (its own listener; agents get only this and their token)"
        )
        active = [*cfg.faults] + (
            [f"provision-error-rate={cfg.provision_error_rate}"] if cfg.provision_error_rate else []
        )
        if active:
            typer.echo(f"  faults:       {', '.join(active)} (seed {cfg.seed})")
        sys.stdout.flush()
    try:
        await task
    except SystemExit as exc:  # uvicorn exits when it cannot start
        return int(exc.code or 1)
    finally:
        for sock in sockets:
            sock.close()
    return 0 if server.started else 1


@app.command("list")
def list_providers() -> None:
    """The built-in providers (servable with `oasis provider serve`) and the provider types `oasis run` accepts."""
    broken: dict[str, str] = {}
    servers = provider_servers(broken)
    width = max((len(n) for n in [*servers, *broken]), default=0)
    typer.echo("servable providers (oasis provider serve NAME):")
    for name, server in sorted(servers.items()):
        typer.echo(f"  {name:<{width}}  {server.description}")
        for fault, text in server.faults.items():
            typer.echo(f"  {'':<{width}}    --fault {fault}: {text}")
    for name, reason in sorted(broken.items()):
        typer.echo(f"  {name:<{width}}  UNUSABLE: {reason}")
    if not servers:
        typer.echo("  (none installed; the simulator: pip install oasis-sim-k8s)")
    typer.echo("provider types for oasis run (--provider URL, or a run config's {type: ...}):")
    typer.echo("  " + ", ".join(known_provider_types()))
