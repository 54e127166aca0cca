"""Pictures and explanations of executed calls: explain (provenance), draw (figures), history (per-call
records with registers and bytes; the notebook reprs of ExecReport), explore (the HTML explorer)."""

from .history import History, HistoryStep, ScenarioStep, step, tensor_html

__all__ = ["History", "HistoryStep", "ScenarioStep", "step", "tensor_html"]
