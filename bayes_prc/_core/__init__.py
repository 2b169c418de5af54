"""The foundation layer: input validation, score transforms and the progress line.

Every other package of bayes_prc builds on these; nothing here imports another package of
bayes_prc except :mod:`bayes_prc.exceptions`. Validation and the progress line need only
numpy and are exported here; the score transforms need scipy, so they are imported from
:mod:`bayes_prc._core.transforms` by the modules that use them (``import bayes_prc`` stays
numpy-only).
"""

from .paths import check_output_path
from .progress import Progress, Steps, check_progressbar
from .validation import (
    as_array,
    check_1d,
    check_binary_target,
    check_bool,
    check_choice,
    check_consistent_length,
    check_finite_scores,
    check_int,
    check_paired_scores,
    check_pool_scores,
    check_positive_number,
    check_probability,
    check_random_state,
    check_rope,
    check_sample_weight,
    check_selected_labels,
    is_dask,
    plain,
    type_of_target,
    unique_labels,
    validate_binary_inputs,
    warn_at_caller,
)

__all__ = [
    "Progress",
    "Steps",
    "as_array",
    "check_1d",
    "check_binary_target",
    "check_bool",
    "check_choice",
    "check_consistent_length",
    "check_finite_scores",
    "check_int",
    "check_output_path",
    "check_paired_scores",
    "check_pool_scores",
    "check_positive_number",
    "check_probability",
    "check_progressbar",
    "check_random_state",
    "check_rope",
    "check_sample_weight",
    "check_selected_labels",
    "is_dask",
    "plain",
    "type_of_target",
    "unique_labels",
    "validate_binary_inputs",
    "warn_at_caller",
]
