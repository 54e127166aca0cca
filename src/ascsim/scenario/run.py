"""Running a checked scenario: the core and its tensors (`build`), each step through the instruction table
(`exec_step`), the per-step summary, the [[expect]] checks after their steps, and saving tensors."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import AscsimError
from ..core import Core
from ..engine.record import ExecReport
from ..isa.table import STRUCT, STRUCT_DEFAULT, TENSOR
from ..machine.memory import LocalTensor
from .expect import run_expects
from .files import CALLS, save_target_problem, step_struct, step_value
from .schema import Scenario, ScenarioError, Step, brief, internal_error, resolve
from .values import init_raw, laid_out_init, warnings_at


@dataclass
class StepResult:
    step: Step
    report: ExecReport | None
    summary: str


#: The renderer of ScenarioRun.timeline: ascsim.view.timeline, a floor above, registers itself here when
#: imported (as engine.record's REPORT_VIEW; docs/architecture.md "Pictures import downward").
TIMELINE_VIEW: Any = None
TIMELINE_MODULE = "ascsim.view.timeline"


#: Steps a ScenarioRun's notebook table lists (a scenario may have 100,000).
HTML_ROWS = 500


@dataclass(repr=False)
class ScenarioRun:
    scenario: Scenario
    core: Core
    tensors: dict[str, LocalTensor]
    results: list[StepResult] = field(default_factory=list)
    expects: list = field(default_factory=list)  # ascsim.expectations.ExpectResult per [[expect]]

    def __repr__(self) -> str:
        """One line (the dataclass's repr would print every tensor and step): file, chip, steps, saves."""
        sc = self.scenario
        n = len(self.results)
        ran = f"{n} of {len(sc.steps)}" if n < len(sc.steps) else str(n)
        return (f"<ScenarioRun {sc.path.name}: chip {sc.chip}, {ran} steps run, saves "
                f"{', '.join(sc.save) or 'nothing'}>")

    def _repr_html_(self) -> str:
        """A notebook's view: the line above, then a table of the steps run, each with the summary line
        `ascsim run` prints for it (at most HTML_ROWS rows)."""
        rows = "".join(f"<tr><td>{r.step.index}</td><td>{html.escape(r.step.call)}</td>"
                       f"<td><code>{html.escape(r.summary)}</code></td></tr>"
                       for r in self.results[:HTML_ROWS])
        more = len(self.results) - HTML_ROWS
        if more > 0:
            rows += f"<tr><td colspan='3'>... and {more:,} more steps</td></tr>"
        return (f"<div><div style='font-family:monospace'>{html.escape(repr(self))}</div>"
                "<table><thead><tr><th>step</th><th>call</th><th>summary</th></tr></thead>"
                f"<tbody>{rows}</tbody></table></div>")

    def timeline(self, cost_model: Any = None) -> Any:
        """The predicted pipe timeline of the steps (one after another: a PIPE_ALL after each), an
        ascsim.view.timeline.Timeline (`cost_model`: a CostModel, or a TOML path / dict overriding the
        chip's table; docs/timeline.md)."""
        if TIMELINE_VIEW is None:  # load the registered view layer
            import importlib

            importlib.import_module(TIMELINE_MODULE)
        return TIMELINE_VIEW.scenario_timeline(self, cost_model)


def build(sc: Scenario) -> ScenarioRun:
    """Create the core and the tensors with their initial contents."""
    core = Core(sc.chip, strict=sc.strict)
    tensors: dict[str, LocalTensor] = {}
    for name, spec in sc.tensors.items():
        loc = f"tensors.{name}"
        try:
            t = core.tensor(spec.position, spec.dtype, spec.length, spec.offset, name=name)
            if isinstance(spec.init, dict) and "raw" in spec.init:
                init_raw(sc, spec, t)
            elif spec.init is not None:
                n = math.prod(spec.shape) if spec.shape else spec.length
                data = warnings_at(f"{loc}.init", laid_out_init, sc, spec, n)
                if data.size > t.length:
                    raise sc.error(f"{loc}.length", f"{spec.length} elements cannot hold the "
                                                     f"{data.size} the init/layout produces")
                warnings_at(f"{loc}.init", t.write, data)
        except ScenarioError:
            raise
        except AscsimError as e:
            raise sc.error(loc, str(e)) from None
        tensors[name] = t
    return ScenarioRun(sc, core, tensors)


def exec_step(run: ScenarioRun, step: Step) -> ExecReport | None:
    """Execute one checked step: its form's arguments from the step's keys (tensor references resolved,
    structs built, values converted, omitted keys at their step defaults), then the Core method."""
    sc, s = run.scenario, step.raw
    form = CALLS[step.call].form_for(s)
    kwargs: dict[str, Any] = dict(form.fixed)
    later = []
    for a in form.step_args():
        key = a.step_key
        if a.kind == TENSOR:
            if key in s:
                kwargs[a.name] = resolve(run.tensors, s[key])
        elif a.kind == STRUCT:
            if key in s or a.step_default is STRUCT_DEFAULT:
                kwargs[a.name] = step_struct(sc, step, key)
        elif key in s:
            kwargs[a.name] = step_value(a, s[key])
        elif callable(a.step_default):
            later.append(a)  # a default that depends on the other arguments (a tensor's TPosition)
        elif a.step_default is not None:
            kwargs[a.name] = a.step_default
    for a in later:
        kwargs[a.name] = a.step_default(kwargs)
    if "instr" in {a.name for a in form.op.args} and "instr" not in kwargs:
        kwargs["instr"] = step.call  # Fill and InitConstValue name their messages after the call
    return getattr(run.core, form.op.method)(**kwargs)


def _located(step: Step, e: Exception) -> str:
    """Point an instruction error at the field it names: steps[3].params.kExtension: ..."""
    msg = str(e)
    m = re.match(r"^[\w<>]+: (\w+)", msg)
    s = step.raw
    if m:
        for part in (a.step_key for a in CALLS[step.call].form_for(s).step_args() if a.kind == STRUCT):
            if isinstance(s.get(part), dict) and m.group(1) in s[part]:
                return f"{step.line}.{part}.{m.group(1)}: {msg}"
        if m.group(1) in s:
            return f"{step.line}.{m.group(1)}: {msg}"
    return f"{step.line}: {msg}"


def summarize(step: Step, report: ExecReport | None) -> str:
    head = f"[{step.index}] {step.call}"
    if report is None:
        return f"{head}: registers set"
    kind = report.instr if report.instr != step.call else ""
    if not report.bytes_written and not report.bytes_read:
        return f"{head}{f' ({kind})' if kind else ''}: NOP"
    frac = report.bytes_written / 512
    extra = f", {len(report.hazards)} hazard(s)" if report.hazards else ""
    return (f"{head}{f' ({kind})' if kind else ''}: wrote {report.bytes_written:,} B "
            f"({frac:g} fractals of 512 B), read {report.bytes_read:,} B, "
            f"{report.pad_elements:,} pad elements{extra}")


def run_scenario(sc: Scenario, upto: int | None = None,
                 on_step: Callable[[StepResult], None] | None = None) -> ScenarioRun:
    """Build the tensors and execute steps [0, upto] (all by default)."""
    run = build(sc)
    last = len(sc.steps) - 1 if upto is None else upto
    if not 0 <= last < len(sc.steps) and sc.steps:
        raise ScenarioError(f"{sc.path.name}: step {upto} does not exist "
                            f"(the file has {len(sc.steps)} steps)")
    for step in sc.steps[: last + 1]:
        try:
            report = exec_step(run, step)
        except ScenarioError:
            raise
        except (AscsimError, NotImplementedError) as e:  # NotImplementedError: a feature ascsim lacks
            raise ScenarioError(f"{sc.path.name}: {_located(step, e)}") from e
        except Exception as e:  # noqa: BLE001 - a bug in the instruction: still one located line
            raise ScenarioError(f"{sc.path.name}: {step.line}: {internal_error(step.call, e)}") from e
        result = StepResult(step, report, summarize(step, report))
        run.results.append(result)
        if on_step:
            on_step(result)
        if sc.expects:
            run.expects += run_expects(run, step.index, step.index == len(sc.steps) - 1)
    return run


def save_outputs(run: ScenarioRun, out_dir: str | Path, names: dict[str, str] | None = None) -> list[Path]:
    """Write the chosen tensors' element arrays (.npy) or all of them in one .npz, inside `out_dir` (made
    if missing)."""
    out_dir = Path(out_dir)
    names = names if names is not None else run.scenario.save
    where = run.scenario.path.name
    for name, target in names.items():
        problem = save_target_problem(target)
        if problem:
            raise ScenarioError(f"{where}: save.{name}: {problem}")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ScenarioError(f"--out {str(out_dir)!r}: cannot make the folder: {e.strerror}") from None
    root = out_dir.resolve()
    written = []
    for name, target in names.items():
        path = out_dir / target
        if not path.resolve().is_relative_to(root):  # a symbolic link inside --out pointing out of it
            raise ScenarioError(f"{where}: save.{name}: {brief(target)} leads outside --out through a "
                                "symbolic link")
        values = run.tensors[name].read()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.suffix == ".npz":
                np.savez(path, **{name: values})
            else:
                np.save(path, values)
        except OSError as e:
            raise ScenarioError(f"{where}: save.{name}: cannot write {brief(str(path))}: {e.strerror}"
                                ) from None
        written.append(path)
    return written
