"""Example data sets: real classifier scores, bundled with the package.

Each example is a small CSV file of labels and classifier scores computed from a data set
that ships with scikit-learn (no download). The files are produced by
``examples/make_example_data.py`` and described in ``docs/datasets.md``. Loading them needs
only numpy and the standard library.

========================  ==========================================================
``"breast_cancer"``       484 held-out tumours, logistic regression, positive = malignant
``"digits_nine"``         899 held-out digits, "is it a 9", two classifiers (paired)
``"small_sample"``        80 of those digits (8 positives), classifier A's scores
========================  ==========================================================

Examples
--------
>>> from bayes_prc.datasets import list_examples, load_example
>>> list_examples()
('breast_cancer', 'digits_nine', 'small_sample')
>>> data = load_example("digits_nine")
>>> print(len(data), int(data.y_true.sum()))
899 90
>>> sorted(data.scores)
['score_a', 'score_b']
"""

from ._examples import ExampleData, example_path, list_examples, load_example

__all__ = ["ExampleData", "example_path", "list_examples", "load_example"]
