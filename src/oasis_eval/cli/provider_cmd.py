"""``oasis provider``: serve a built-in environment provider over petri's ``/v1`` HTTP API,
and list the built-in providers.

``oasis provider serve sim-k8s [--host 127.0.0.1] [--port 8765] [--token T]
[--fault audit-unreachable|observe-error|audit-empty|audit-drop-agent|audit-drop-setup|teardown-in-progress ...]
[--provision-error-rate R] [--seed N] [--allow-remote]`` runs uvicorn until
interrupted and prints the URL first (``--port 0`` picks a free port; the printed URL
has the real one). Only loopback addresses are served unless ``--allow-remote``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import sys
from dataclasses import dataclass, field
from typing import Any

import typer

from ..sim_k8s.factory import PROVIDER_FAULTS, SERVER_FAULTS, make_faults

app = typer.Typer(
    help="Environment providers: serve a built-in one over HTTP (petri-compatible /v1 API), list them.",
    no_args_is_help=True,
)

#: servable built-in providers -> one-line description
BUILTIN_PROVIDERS: dict[str, str] = {
    "sim-k8s": "simulated Kubernetes clusters for the Software Infrastructure profile "
               "(audit log, state injection, NetworkPolicy; milliseconds per environment)",
}
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

    def url(self, port: int | None = None) -> str:
        host = self.host
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"http://{host}:{self.port if port is None else port}"

    def build_app(self) -> Any:
        from ..sim_k8s import SimK8sProvider
        from ..sim_k8s.server import create_app

        provider = SimK8sProvider(faults=make_faults(self.faults, self.provision_error_rate, allow=SERVER_FAULTS),
                                  seed=self.seed)
        return create_app(provider, token=self.token, retry_after_seconds=self.retry_after,
                          teardown_in_progress="teardown-in-progress" in self.faults)


def build_serve_config(provider: str, host: str = "127.0.0.1", port: int = 8765, token: str | None = None,
                       faults: list[str] | None = None, provision_error_rate: float = 0.0, seed: int = 0,
                       allow_remote: bool = False, retry_after: float | None = 1.0,
                       log_level: str = "info") -> ServeConfig:
    """Validate the ``serve`` options; usage errors raise :class:`typer.BadParameter`."""
    if provider not in BUILTIN_PROVIDERS:
        raise typer.BadParameter(f"unknown provider {provider!r}; built-in: {', '.join(sorted(BUILTIN_PROVIDERS))}",
                                 param_hint="PROVIDER")
    if not host.strip():
        raise typer.BadParameter("host must not be empty", param_hint="--host")
    if not is_loopback(host) and not allow_remote:
        raise typer.BadParameter(
            f"{host!r} is not a loopback address; the simulated provider hands out cluster credentials "
            "to anyone who can reach it, so it serves 127.0.0.1/::1/localhost only. "
            "Pass --allow-remote (and --token) to listen on other interfaces.", param_hint="--host")
    if not 0 <= port <= 65535:
        raise typer.BadParameter(f"port must be between 0 and 65535, not {port}", param_hint="--port")
    names = [n.strip() for item in faults or [] for n in item.split(",") if n.strip()]
    try:
        make_faults(names, provision_error_rate, allow=SERVER_FAULTS)
    except ValueError as exc:
        hint = "--provision-error-rate" if "rate" in str(exc) else "--fault"
        raise typer.BadParameter(str(exc), param_hint=hint) from None
    if retry_after is not None and retry_after < 0:
        raise typer.BadParameter("retry-after must be >= 0 seconds", param_hint="--retry-after")
    if log_level.lower() not in LOG_LEVELS:
        raise typer.BadParameter(f"log level must be one of {', '.join(LOG_LEVELS)}", param_hint="--log-level")
    return ServeConfig(provider=provider, host=host.strip(), port=port, token=token or None,
                       faults=list(dict.fromkeys(names)), provision_error_rate=provision_error_rate, seed=seed,
                       allow_remote=allow_remote, retry_after=retry_after, log_level=log_level.lower())


FAULT_HELP = "Inject a fault (repeatable): " + "; ".join(
    f"{k}: {v}" for k, v in {**PROVIDER_FAULTS, **SERVER_FAULTS}.items()) + "."


@app.command("serve")
def serve(
    provider: str = typer.Argument(..., metavar="PROVIDER", help="The built-in provider to serve (sim-k8s)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback only unless --allow-remote)."),
    port: int = typer.Option(8765, "--port", help="Port (0: pick a free one; the printed URL has it)."),
    token: str | None = typer.Option(None, "--token", envvar=TOKEN_ENV,
                                     help=f"Require 'Authorization: Bearer TOKEN' on /v1 (or set {TOKEN_ENV})."),
    fault: list[str] | None = typer.Option(None, "--fault", help=FAULT_HELP),
    provision_error_rate: float = typer.Option(0.0, "--provision-error-rate",
                                               help="Fraction of provisions that fail with a retryable 502 (seeded)."),
    seed: int = typer.Option(0, "--seed", help="Seed for identifiers and injected provision failures."),
    retry_after: float = typer.Option(1.0, "--retry-after",
                                      help="retry_after_seconds on injected provision failures (seconds)."),
    allow_remote: bool = typer.Option(False, "--allow-remote", help="Allow listening on a non-loopback address."),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn log level (access log at info)."),
) -> None:
    """Serve a built-in provider over petri's /v1 API until interrupted (Ctrl-C)."""
    cfg = build_serve_config(provider, host, port, token, fault, provision_error_rate, seed, allow_remote,
                             retry_after, log_level)
    if cfg.allow_remote and not is_loopback(cfg.host) and not cfg.token:
        typer.echo("warning: serving on a non-loopback address without --token: anyone who can reach it "
                   "can provision and observe environments", err=True)
    try:
        code = asyncio.run(_serve(cfg))
    except KeyboardInterrupt:  # pragma: no cover - interactive
        code = 0
    raise typer.Exit(code)


async def _serve(cfg: ServeConfig) -> int:
    import uvicorn

    app_obj = cfg.build_app()
    config = uvicorn.Config(app_obj, host=cfg.host, port=cfg.port, log_level=cfg.log_level,
                            lifespan="on" if app_obj.state.mcp_mounted else "off")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started and not task.done():
        await asyncio.sleep(0.02)
    if server.started:
        bound = cfg.port
        for srv in getattr(server, "servers", []):
            for sock in srv.sockets:
                bound = sock.getsockname()[1]
                break
        url = cfg.url(bound)
        typer.echo(f"{cfg.provider} provider serving on {url}")
        typer.echo(f"  runner API: {url}/v1 (oasis run --provider {url})"
                   + ("; bearer token required" if cfg.token else ""))
        typer.echo(f"  agent MCP:  {url}/mcp" if app_obj.state.mcp_mounted
                   else "  agent MCP:  not available (oasis_eval.sim_k8s.mcp_server missing)")
        active = [*cfg.faults] + ([f"provision-error-rate={cfg.provision_error_rate}"]
                                  if cfg.provision_error_rate else [])
        if active:
            typer.echo(f"  faults:     {', '.join(active)} (seed {cfg.seed})")
        sys.stdout.flush()
    try:
        await task
    except SystemExit as exc:  # uvicorn exits when it cannot bind
        return int(exc.code or 1)
    return 0 if server.started else 1


@app.command("list")
def list_providers() -> None:
    """The built-in providers (servable with `oasis provider serve`) and the provider types `oasis run` accepts."""
    from ..adapters.providers import known_provider_types

    width = max(len(n) for n in BUILTIN_PROVIDERS)
    typer.echo("built-in providers (oasis provider serve NAME):")
    for name, text in sorted(BUILTIN_PROVIDERS.items()):
        typer.echo(f"  {name:<{width}}  {text}")
    typer.echo("provider types for oasis run (--provider URL, or a run config's {type: ...}):")
    typer.echo("  " + ", ".join(known_provider_types()))
