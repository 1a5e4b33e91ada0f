"""What ``flood.py`` prints: the figures of each phase, the issue's targets (PASS/FAIL) and,
for two revisions or more, the phases side by side."""

from __future__ import annotations

import math
import os
import statistics
from typing import Any

from harness import quantile

P99_TARGET = 2.0  # × the baseline's p99
CLOSE_TARGET = 2.0  # seconds from a flooder's first frame to its close


def figures(
    phases: list[tuple[str, float, float, int]],
    readings: list[dict[str, Any]],
    played: dict[str, Any],
    flooded: dict[str, Any],
    waited: float,
    health_ok: bool,
) -> dict[str, Any]:
    """One dict per phase, every figure the report prints (latencies in ms)."""
    out = []
    flood_by_name = {f["phase"]: f for f in flooded["phases"]}
    for (name, a, b, count), reading, normal in zip(
        phases, readings, played["phases"], strict=True
    ):
        seconds = b - a
        lat = normal["latencies"]
        cpu0, (busy0, total0), ours0 = reading["start"]
        cpu1, (busy1, total1), ours1 = reading["end"]
        busy = (busy1 - busy0) / max(1, total1 - total0)
        after, before = reading["counters_end"], reading["counters"]
        counted = {k: after.get(k, 0) - before.get(k, 0) for k in after}
        flood = flood_by_name.get(name)
        lives = flood["lives"] if flood else []
        out.append({
            "phase": name, "flooders": count, "seconds": seconds, "start": a, "end": b,
            "p50_ms": _ms(lat, 0.50), "p99_ms": _ms(lat, 0.99),
            "max_ms": max(lat) * 1e3 if lat else math.nan, "actions_timed": len(lat),
            "sent": normal["sent"], "acked": normal["acked"], "refused": normal["refused"],
            "unanswered": normal["unanswered"], "incomplete": normal["incomplete"],
            "disconnected": len(normal["disconnected"]),
            "disconnect_codes": normal["disconnected"],
            "server_cpu": (cpu1 - cpu0) / seconds,
            "server_rss_mib": reading["rss"] / 2**20,
            "machine_busy": busy,
            "other_cpu": busy * (os.cpu_count() or 1) - (ours1 - ours0) / seconds,
            "players_cpu": normal["generator_cpu"],
            "flooders_cpu": flood["generator_cpu"] if flood else 0.0,
            "server_frames": sum(v for k, v in counted.items()
                                 if k.startswith("message:") or k in _UNCOUNTED),
            "server_rate_limited": counted.get("error:rate.limited", 0),
            "server_errors": {k[6:]: int(v) for k, v in counted.items()
                              if k.startswith("error:") and v},
            "connections": lives,
            "reconnects": flood["reconnects"] if flood else 0,
            "reconnects_refused": flood["refused"] if flood else {},
            "setup_failed": flood["setup_failed"] if flood else {},
            "flood_frames": sum(life["frames"] for life in lives),
        })  # fmt: skip
    base_p99 = out[0]["p99_ms"]
    for phase in out:
        phase["p99_vs_baseline"] = phase["p99_ms"] / base_p99 if base_p99 else math.nan
        phase["closes"] = closes(phase) if phase["flooders"] else None
    return {"phases": out, "errors": played["errors"], "waited_for_quiet_s": waited,
            "generator_lag_max_ms": played["lag_max_ms"], "server_alive": health_ok,
            "disconnected": len(played["disconnected"])}  # fmt: skip


# Refused before the server counts the message by type: frames it handled all the same.
_UNCOUNTED = ("error:rate.limited", "error:message.malformed", "error:frame.too_large")


def _ms(values: list[float], q: float) -> float:
    return quantile(values, q) * 1e3 if values else math.nan


def closes(phase: dict[str, Any]) -> dict[str, Any]:
    """How the phase's flooding connections ended: closed within the target or not."""
    lives = phase["connections"]
    closed = [c["closed_after_s"] for c in lives if c["closed_after_s"] is not None]
    # A connection still open at the phase's end that started less than the target before
    # it cannot be judged (a late reconnection): it is left out of the count.
    young = [c for c in lives if c["closed_after_s"] is None
             and phase["end"] - c["started"] < CLOSE_TARGET]  # fmt: skip
    judged = len(lives) - len(young)
    late = [c for c in lives if c not in young and
            (c["closed_after_s"] is None or c["closed_after_s"] > CLOSE_TARGET)]  # fmt: skip
    codes: dict[str, int] = {}
    for c in lives:
        codes[c["code"]] = codes.get(c["code"], 0) + 1
    waits = [c["longest_send_s"] for c in lives]
    return {
        "connections": len(lives), "judged": judged, "late": len(late), "closed": len(closed),
        "close_p50_s": statistics.median(closed) if closed else None,
        "close_max_s": max(closed) if closed else None, "codes": codes,
        "gone": sum(1 for c in lives if c["gone_after_s"] is not None),
        "longest_send_p50_s": statistics.median(waits) if waits else None,
        "longest_send_max_s": max(waits) if waits else None,
    }  # fmt: skip


def _s(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f} s"


def report(run: dict[str, Any]) -> None:
    for phase in run["phases"]:
        print(f"\n== {phase['phase']} ({phase['seconds']:.0f} s measured)")
        print(
            f"  normal players   action -> last push  p50 {phase['p50_ms']:.2f} ms  "
            f"p99 {phase['p99_ms']:.2f} ms  max {phase['max_ms']:.1f} ms  "
            f"(n={phase['actions_timed']})   p99 {phase['p99_vs_baseline']:.2f}× baseline"
        )
        print(
            f"                   actions sent {phase['sent']}, answered "
            f"{phase['acked'] + phase['refused']} (refused {phase['refused']}), unanswered "
            f"{phase['unanswered']}, incomplete {phase['incomplete']}; "
            f"disconnected {phase['disconnected']}"
        )
        if phase["flooders"]:
            c = phase["closes"]
            print(
                f"  flooders         {phase['flooders']} address(es), {c['connections']} "
                f"connection(s); frames sent {phase['flood_frames']:,} "
                f"({phase['flood_frames'] / phase['seconds']:,.0f}/s)"
            )
            print(
                f"                   time to close p50 {_s(c['close_p50_s'])}, max "
                f"{_s(c['close_max_s'])} ({c['closed']} closed, {c['gone']} socket(s) ended by "
                f"the server); close codes {c['codes']}"
            )
            print(
                f"                   longest wait for the socket to take a batch p50 "
                f"{_s(c['longest_send_p50_s'])}, max {_s(c['longest_send_max_s'])} (long: the "
                f"server read slowly or stopped reading)"
            )
            print(
                f"                   reconnections {phase['reconnects']}: refused "
                f"{sum(phase['reconnects_refused'].values())} {phase['reconnects_refused']}; "
                f"accepted, then no room: {phase['setup_failed'] or 0}"
            )
        print(
            f"  server           CPU {phase['server_cpu']:.2f} s/s   RSS "
            f"{phase['server_rss_mib']:.0f} MiB   frames handled {phase['server_frames']:,.0f} "
            f"(rate.limited {phase['server_rate_limited']:,.0f})"
        )
        print(
            f"  machine          busy {phase['machine_busy']:.0%} of {os.cpu_count()} cores; "
            f"players' process {phase['players_cpu']:.0%}, flooders' {phase['flooders_cpu']:.0%}"
            f" of a core; other processes {phase['other_cpu']:.2f} cores"
        )
    if run["errors"]:
        print(f"\n  errors answered to normal players' actions: {run['errors']}")
    print(
        f"\n  normal players' send lag max {run['generator_lag_max_ms']:.0f} ms (the players' "
        f"process, late against its schedule); waited {run['waited_for_quiet_s']:.0f} s for a "
        f"quiet machine; server {'still running' if run['server_alive'] else 'EXITED'} at the end"
    )


def targets(run: dict[str, Any]) -> list[dict[str, Any]]:
    """The issue's targets, for every flood phase: PASS or FAIL with the figures."""
    verdicts = []
    base = run["phases"][0]
    for phase in run["phases"][1:]:
        c = phase["closes"]
        checks = [
            (
                f"normal players' p99 within {P99_TARGET:g}× the baseline's",
                phase["p99_ms"] <= P99_TARGET * base["p99_ms"],
                f"{phase['p99_ms']:.1f} ms against {base['p99_ms']:.1f} ms "
                f"({phase['p99_vs_baseline']:.2f}×)",
            ),
            (
                "no normal player disconnected",
                phase["disconnected"] == 0,
                f"{phase['disconnected']} disconnected ({phase['unanswered']} of their actions "
                f"unanswered)",
            ),
            (
                f"every flooder connection closed within {CLOSE_TARGET:g} s",
                c["judged"] > 0 and c["late"] == 0,
                f"{c['judged'] - c['late']} of {c['judged']} (max {_s(c['close_max_s'])}, "
                f"codes {c['codes']})",
            ),
        ]
        for label, ok, figures in checks:
            verdicts.append({"phase": phase["phase"], "target": label, "pass": ok,
                             "figures": figures})  # fmt: skip
    return verdicts


def print_targets(label: str, verdicts: list[dict[str, Any]], run: dict[str, Any]) -> None:
    print(f"\n== targets (issue 13), {label}")
    for v in verdicts:
        print(f"  {'PASS' if v['pass'] else 'FAIL'}  {v['phase']}: {v['target']}: {v['figures']}")
    whole = "PASS" if run["disconnected"] == 0 else "FAIL"
    print(f"  {whole}  whole run: normal players disconnected: {run['disconnected']}")


def compare(runs: list[dict[str, Any]]) -> None:
    """Revisions side by side: each phase's p99 (× its own baseline) and closes."""
    print("\n######## revisions side by side")
    print(f"  {'phase':<14}" + "".join(f"{r['label']:>36}" for r in runs))
    for i, phase in enumerate(runs[0]["phases"]):
        cells = []
        for r in runs:
            p = r["phases"][i]
            closes = ""
            if p["flooders"]:
                closes = f", closed {p['closes']['judged'] - p['closes']['late']}/"
                closes += f"{p['closes']['judged']}"
            cells.append(f"p99 {p['p99_ms']:.1f} ms ({p['p99_vs_baseline']:.1f}×){closes}")
        print(f"  {phase['phase']:<14}" + "".join(f"{c:>36}" for c in cells))
