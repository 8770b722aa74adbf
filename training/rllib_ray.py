"""Joining or starting Ray for :mod:`training.rllib`: the ``address`` and CPU checks, ``ray.init`` under the
stop handlers of :func:`~monolith_envs.core.interrupt.stop_on_signals`, and the signal behind a
``KeyboardInterrupt`` that Ray raised in place of :class:`~monolith_envs.core.interrupt.Interrupted`.

Each env runner is a Ray actor taking one CPU: a local instance with fewer CPUs than ``num_env_runners``
would wait for them forever, so :func:`check_cpus` refuses that before Ray starts; a cluster's CPUs are
checked once it is joined (:func:`_init_ray`).  ``address`` is checked for its form before Ray starts
(:func:`check_address`) and for a listening head node before ``ray.init`` (which would retry for about 20 s).
"""

from __future__ import annotations

import logging
import os
import re
import signal
from typing import Any

from monolith_envs.agents.model_files import short_error
from monolith_envs.core.config import short_repr
from monolith_envs.core.interrupt import STOP_SIGNALS, Interrupted, signals_deferred
from monolith_envs.core.words import count
from training.config import TrainConfigError

__all__ = ["RayStartError", "check_address", "check_cpus", "local_cpus"]

#: Ray reads it when it starts the driver's core worker: no native crash handler (it aborts on SIGTERM)
_NO_CRASH_HANDLER = "RAY_DISABLE_FAILURE_SIGNAL_HANDLER"


class RayStartError(Exception):
    """Ray could not be joined or started as the config asks (an address that cannot be reached, a cluster with
    fewer CPUs than the env runners need): :func:`main` prints it as one ``error:`` line, exit status 2."""


#: ``HOST:PORT`` of ``address``: a host name, an IPv4 address or a bracketed IPv6 address, and a port
_ADDRESS = re.compile(r"(?P<host>[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])"
                      r":(?P<port>[0-9]{1,5})")


def check_address(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of an ``address`` of the form ``HOST:PORT``; None for ``'auto'`` or ``''``.

    Raises:
        TrainConfigError: any other form, or a port outside 1 to 65535.
    """
    if address in ("", "auto"):
        return None
    m = _ADDRESS.fullmatch(address)
    if m is None or not 1 <= int(m.group("port")) <= 65535:
        raise TrainConfigError(f"config key 'address' (--address): must be 'auto' (the Ray cluster this machine "
                               f"belongs to), HOST:PORT (a head node's GCS, port 1 to 65535) or empty (start a "
                               f"local Ray instance), got {short_repr(address)}")
    return m.group("host").strip("[]"), int(m.group("port"))


def local_cpus() -> int:
    """The CPUs a local Ray instance gets when ``ray_num_cpus`` is 0 (Ray's own count: affinity, cgroups)."""
    try:
        from ray._private.utils import get_num_cpus

        return int(get_num_cpus())
    except Exception:  # noqa: BLE001  (another Ray version: this process's usable CPUs, as Ray counts them)
        from monolith_envs.core.processes import usable_cpus

        return usable_cpus()


def check_cpus(cfg: dict, runners_flag: bool = False) -> None:
    """Each env runner takes one CPU of the Ray instance (``num_cpus_per_env_runner=1``): a local instance
    with fewer CPUs than ``num_env_runners`` would wait for them forever, so it is refused here, before Ray
    starts.  (A cluster's CPUs are known once joined: :func:`_init_ray` checks them then.)

    Raises:
        TrainConfigError: naming both values and what is allowed.
    """
    if cfg["address"]:
        return
    n = cfg["num_env_runners"]
    cpus = cfg["ray_num_cpus"] or local_cpus()
    if n <= cpus:
        return
    runners = "--num-env-runners" if runners_flag else "config key 'num_env_runners'"
    if cfg["ray_num_cpus"]:
        raise TrainConfigError(f"{runners} ({n}) needs {count(n, 'CPU')} of the local Ray instance (one per env "
                               f"runner), but config key 'ray_num_cpus' gives it {cpus}: use at most {cpus} env "
                               f"runners (0 samples in the driver), or ray_num_cpus of at least {n} (0 = the "
                               f"{count(local_cpus(), 'CPU')} this process may use)")
    raise TrainConfigError(f"{runners} ({n}) needs {count(n, 'CPU')} of the local Ray instance (one per env runner), "
                           f"but this process may use {count(cpus, 'CPU')} (config key 'ray_num_cpus' is 0: all "
                           f"of them): use at most {cpus} env runners (0 samples in the driver), or join a larger "
                           f"cluster with --address")


def _reach(host: str, port: int, timeout: float = 5.0) -> None:
    """Fail fast on an address where nothing listens (``ray.init`` would retry for about 20 s, then raise)."""
    import socket

    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as e:
        why = "timed out" if isinstance(e, socket.timeout) else e.strerror or str(e) or type(e).__name__
        raise RayStartError(f"config key 'address' (--address): cannot reach a Ray cluster at {host}:{port} "
                            f"({why}); start one there (ray start --head) or give another address") from None


def _init_ray(cfg: dict) -> bool:
    """Join ``address`` or start a local instance; returns True when this call started Ray.

    A stop (SIGINT, SIGTERM) that arrives inside ``ray.init`` is held until it returns, then passed to the
    handlers in force before it (those of :func:`~monolith_envs.core.interrupt.stop_on_signals` under
    :func:`main`): an exception raised in the middle of Ray's start can hang it (a half-built GCS client) or
    leave its processes behind.  Ray's own SIGTERM handler (``sys.exit``) is not installed, nor its native
    crash handler (which aborts the process on SIGTERM).

    Raises:
        RayStartError: the cluster cannot be reached, or it has fewer CPUs than ``num_env_runners``.
        Interrupted: a stop arrived while Ray started (from the handlers in force before).
    """
    import ray

    if ray.is_initialized():  # the caller's Ray: its CPUs must still cover the env runners
        check_cluster_cpus(cfg)
        return False
    address = cfg["address"]
    target = check_address(address)
    if target is not None:
        _reach(*target)
    # Ray's and RLlib's own INFO and WARNING lines (the new API stack's default, deprecations inside RLlib, an
    # optional GPU monitor) say nothing about this run: errors only, on a local instance and in this process
    kw: dict[str, Any] = {"log_to_driver": False, "include_dashboard": False, "logging_level": logging.ERROR}
    for name in ("ray", "ray.rllib", "ray.tune"):
        logging.getLogger(name).setLevel(logging.ERROR)
    utils = getattr(getattr(ray, "_private", None), "utils", None)
    set_handler = getattr(utils, "set_sigterm_handler", None)
    if set_handler is not None:
        utils.set_sigterm_handler = lambda _handler: None  # ray.init's sys.exit handler would replace the hold
    env_before = os.environ.get(_NO_CRASH_HANDLER)
    os.environ[_NO_CRASH_HANDLER] = "1"
    stopped = False  # Ray's own SIGTERM handler ended ray.init
    try:
        with signals_deferred():  # a stop is held, then given to the handler in force before (also SIG_DFL)
            try:
                if address:
                    ray.init(address=address, log_to_driver=False)
                else:
                    if cfg["ray_num_cpus"]:
                        kw["num_cpus"] = cfg["ray_num_cpus"]
                    ray.init(**kw)
            except SystemExit as e:  # Ray's SIGTERM handler, where it could not be kept out
                if e.code != signal.SIGTERM:
                    raise
                stopped = True
            except (ConnectionError, TimeoutError, RuntimeError, ValueError) as e:
                if not address:
                    raise
                raise RayStartError(f"config key 'address' (--address): cannot join the Ray cluster at {address!r} "
                                    f"({short_error(e, 300)})") from None
            # (a stop held in the block replaces any error raised in it: the handler runs as the block ends)
    finally:
        if set_handler is not None:
            utils.set_sigterm_handler = set_handler
        if env_before is None:
            os.environ.pop(_NO_CRASH_HANDLER, None)
        else:
            os.environ[_NO_CRASH_HANDLER] = env_before
    if stopped:  # the handlers in force before Ray's start are back: they take the stop now
        os.kill(os.getpid(), signal.SIGTERM)  # (Python runs the handler before the next line)
    check_cluster_cpus(cfg)
    return True


def check_cluster_cpus(cfg: dict) -> None:
    """Refuse more env runners than the joined Ray instance has CPUs (each runner takes one: RLlib would wait
    for them for ever).

    Raises:
        RayStartError: fewer CPUs than ``num_env_runners``.
    """
    import ray

    cpus = int(ray.cluster_resources().get("CPU", 0))
    if cfg["num_env_runners"] > cpus:
        address = cfg["address"]
        where = f"the Ray cluster at {address!r}" if address else "the local Ray instance"
        raise RayStartError(f"config key 'num_env_runners' ({cfg['num_env_runners']}) needs one CPU per env runner, "
                            f"but {where} has {count(cpus, 'CPU')}: use at most {cpus} env runners, or a larger "
                            "cluster")



#: the signal that stopped the run, recorded by :func:`_record_signals` (Ray may hand it on as a plain
#: ``KeyboardInterrupt``, which does not say which signal it was)
_LAST_SIGNAL: dict[str, int] = {}


def _record_signals() -> None:
    """Wrap the stop handlers now in force (:func:`~monolith_envs.core.interrupt.stop_on_signals`'s) so that
    they record the signal first; :func:`~monolith_envs.core.interrupt.stop_on_signals` restores the
    handlers of before it when its block ends."""
    import threading

    _LAST_SIGNAL.clear()
    if threading.current_thread() is not threading.main_thread():
        return
    for s in STOP_SIGNALS:
        h = signal.getsignal(s)
        if callable(h):
            def record(signum: int, frame: Any, h: Any = h) -> None:
                _LAST_SIGNAL.setdefault("signum", signum)
                h(signum, frame)

            signal.signal(s, record)


def _as_interrupted(e: BaseException) -> Interrupted:
    """The :class:`Interrupted` behind a ``KeyboardInterrupt`` that Ray raised in its place (found in the
    exception's context, else made from the recorded signal; SIGINT when none was recorded)."""
    seen = e.__context__
    while seen is not None:
        if isinstance(seen, Interrupted):
            return seen
        seen = seen.__context__
    return Interrupted(_LAST_SIGNAL.get("signum", signal.SIGINT))
