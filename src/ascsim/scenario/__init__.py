"""Scenario files: a chip, some tensors, register settings and an ordered list of C++-named calls.

TOML is the primary format (comments, readable arrays of tables, `tomllib` in the standard library);
JSON with the same schema is accepted too. Example:

    chip = "a2"

    [tensors.fmap]                     # a LocalTensor: TPosition, dtype, length (elements), offset (bytes)
    position = "A1"
    dtype = "half"
    shape = [32, 4, 4]                 # C, H, W: contents built logically, then laid out
    layout = "fmap"                    # NC1HWC0 (+ packed channel tail) as Load3D reads it
    init = "arange"                    # "arange" | "zeros" | "ones" | {random = {seed = 0}} | {npy = "x.npy"}
                                       # | {values = [...]} | {fill = 1.5}

    [tensors.l0a]
    position = "A2"
    dtype = "half"
    length = 2048

    [[steps]]
    call = "LoadData"
    dst = "l0a"
    src = "fmap"
    [steps.params]                     # (or one line: params = {type = ..., ...}; TOML 1.0 inline
    type = "LoadData3DParamsV2"        #  tables cannot span lines)
    padList = [1, 1, 1, 1]
    l1H = 4
    l1W = 4
    channelSize = 32
    kExtension = 128
    mExtension = 16
    filterW = 2
    filterH = 2

Every problem is reported as one line naming the file and the path inside it:
`conv.toml: steps[3].params.kExtension: Load3Dv2: kExtension must be in [0, 65535], but got 70000`.
"""

from .files import (
    CALLS,
    FIXPIPE_CONFIGS,
    load_scenario,
    save_target_problem,
    step_config,
    step_struct,
    struct_types,
    tomllib,
)
from .run import ScenarioRun, StepResult, build, run_scenario, save_outputs, summarize
from .schema import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_GM_ELEMENTS,
    MAX_GM_TOTAL_ELEMENTS,
    Scenario,
    ScenarioError,
    ScenarioWarning,
    Step,
    TensorSpec,
    internal_error,
)
from .values import initial_values

__all__ = [
    "CALLS", "FIXPIPE_CONFIGS", "MAX_DEPTH", "MAX_FILE_BYTES", "MAX_GM_ELEMENTS", "MAX_GM_TOTAL_ELEMENTS",
    "Scenario", "ScenarioError", "ScenarioRun", "ScenarioWarning", "Step", "StepResult", "TensorSpec",
    "build",
    "initial_values", "internal_error", "load_scenario", "run_scenario", "save_outputs",
    "save_target_problem",
    "step_config", "step_struct", "struct_types", "summarize", "tomllib",
]
