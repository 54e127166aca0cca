"""One word per thing (issue 19): a scenario's step is "step N" in pictures as in `ascsim run` and the
explorer (a compiled program's call, "call N": tests/program/test_program_names.py); a ScenarioRun shows
as one line in a REPL and as a table of the `ascsim run` lines in a notebook."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from support.paths import EXAMPLES

from ascsim.cli import main
from ascsim.scenario import load_scenario, run_scenario
from ascsim.view.draw import build_picture
from ascsim.view.explain import explain_step, step_view


def test_scenario_steps_are_titled_step(tmp_path, capsys) -> None:
    """`ascsim draw --step 3` on conv2d.toml (step 3 is the Fixpipe, whose call is its instruction: the
    case that said "call 3")."""
    svg = tmp_path / "s3.svg"
    assert main(["draw", str(EXAMPLES / "conv2d.toml"), "--step", "3", "-o", str(svg)]) == 0
    text = html.unescape(svg.read_text())
    assert "step 3: Fixpipe" in text and "call 3" not in text
    run = run_scenario(load_scenario(EXAMPLES / "conv2d.toml"), upto=0)
    assert build_picture(step_view(run, 0)).title == "step 0: LoadData -> Load3Dv2"
    assert explain_step(run, 0).startswith("step 0: LoadData -> Load3Dv2")


class _Table(HTMLParser):
    """The cells of every table row (a reader independent of how the repr writes them)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data) -> None:
        if self.cell is not None:
            self.cell.append(data)


def test_scenario_run_repr_is_short_and_its_html_lists_the_run_lines(tmp_path, capsys) -> None:
    path = EXAMPLES / "conv2d.toml"
    assert main(["run", str(path), "--out", str(tmp_path)]) == 0
    cli = [ln for ln in capsys.readouterr().out.splitlines() if re.match(r"\[\d+\] ", ln)]
    run = run_scenario(load_scenario(path))
    text = repr(run)
    assert text == "<ScenarioRun conv2d.toml: chip a2, 4 steps run, saves y>"
    partial = run_scenario(load_scenario(path), upto=1)
    assert "2 of 4 steps run" in repr(partial)
    table = _Table()
    table.feed(run._repr_html_())
    assert table.rows[0] == ["step", "call", "summary"]
    assert table.rows[1:] == [[str(i), c, line] for i, (c, line) in
                              enumerate(zip(["LoadData", "LoadData", "Mmad", "Fixpipe"], cli, strict=True))]
