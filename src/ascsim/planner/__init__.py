"""The tile planner: from a problem (matmul, conv2d) to the calls that compute it on one chip.

`plan_matmul` / `plan_conv2d` search the legal tilings and loads (planner.search) and return a `TilePlan`:
its program (planner.program: tensors + calls), cost, reasons, report, verification run, and its scenario /
C++ text (planner.emit). The flows (`ascsim.flows.conv2d`, `ascsim.flows_matmul.matmul`) execute plans, so
flows, planner, scenarios and C++ share one tiling engine (planner.schedule). docs/planner.md.
"""

from __future__ import annotations

from .movers import LOADS, legal_loads, why_illegal
from .plans import TilePlan, Verification, plan_conv2d, plan_matmul
from .problems import ConvProblem, MatmulProblem
from .program import Call, Program

#: The name TilePlan had before the engine's element-level `Plan` made one name mean two things.
Plan = TilePlan

__all__ = ["LOADS", "Call", "ConvProblem", "MatmulProblem", "Plan", "TilePlan", "Program", "Verification",
           "legal_loads", "plan_conv2d", "plan_matmul", "why_illegal"]
