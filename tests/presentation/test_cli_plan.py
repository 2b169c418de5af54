"""``bayes-prc plan``: the test-set plan on the command line, equal to the API's."""

import matplotlib

matplotlib.use("Agg")

from bayes_prc.cli import main  # noqa: E402
from bayes_prc.planning import plan_test_set  # noqa: E402


def test_plan_prints_the_api_plan(capsys):
    code = main(
        [
            "plan",
            "--expected-ap",
            "0.5",
            "--prevalence",
            "0.1",
            "--width",
            "0.2",
            "--n-simulations",
            "50",
            "--seed",
            "4",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    plan = plan_test_set(expected=0.5, prevalence=0.1, width=0.2, n_simulations=50, random_seed=4)
    assert out.startswith(f"{plan.n} labelled items")
    assert "assured_width" in out and "meets_target" in out


def test_plan_with_clusters_states_its_design_effect(capsys):
    argv = ["plan", "--expected-ap", "0.6", "--prevalence", "0.2", "--width", "0.2"]
    argv += ["--cluster-size", "4", "--icc", "0.2", "--n-simulations", "50", "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    plan = plan_test_set(
        expected=0.6,
        prevalence=0.2,
        width=0.2,
        cluster_size=4,
        icc=0.2,
        n_simulations=50,
        random_seed=3,
    )
    assert out.startswith(f"{plan.n} labelled items")
    assert f"{plan.n_clusters} clusters of 4" in out
    assert (
        f"design effect: {plan.design_effect:.3f} (Kish's 1 + (m - 1) icc for a mean: 1.6)" in out
    )


def test_plan_difference_and_plot(tmp_path, capsys):
    png = tmp_path / "plan.png"
    code = main(
        [
            "plan",
            "--expected-ap",
            "0.6",
            "--prevalence",
            "0.3",
            "--difference",
            "0.15",
            "--correlation",
            "0.5",
            "--n-simulations",
            "30",
            "--plot",
            str(png),
        ]
    )
    assert code == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert "power" in capsys.readouterr().out
    # an existing plot is not overwritten without --force (checked before any compute)
    assert (
        main(
            [
                "plan",
                "--expected-ap",
                "0.6",
                "--prevalence",
                "0.3",
                "--width",
                "0.2",
                "--plot",
                str(png),
            ]
        )
        == 2
    )
    assert "--force" in capsys.readouterr().err


def test_plan_errors_name_the_option(capsys):
    assert main(["plan", "--expected-ap", "0.04", "--prevalence", "0.05", "--width", "0.1"]) == 2
    err = capsys.readouterr().err
    assert "--expected-ap" in err and "0.04" in err and "np.float" not in err
    assert (
        main(["plan", "--expected-ap", "0.6", "--prevalence", "0.05", "--difference", "0.1"]) == 2
    )
    assert "--correlation" in capsys.readouterr().err
    assert (
        main(
            ["plan", "--expected-ap", "0.6", "--prevalence", "0.05", "--icc", "2", "--width", "0.1"]
        )
        == 2
    )
    assert "--icc must be in [0, 1]; got 2.0" in capsys.readouterr().err
