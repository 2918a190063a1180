"""--explain: the backward pass step by step (plain text exactly, JSON steps), for the cases that are
easy to get wrong: a value used twice, broadcasting, accumulation across --repeat, --grad-tensor."""

from __future__ import annotations


def explained(out) -> list[str]:
    lines = out.stdout.splitlines()
    return lines[lines.index("explain"):]


def test_the_contract_example_mul_with_numbers(cli):
    out = cli("eval", "c = a + b; e = c * d", "a=2", "b=3", "d=4", "--explain")
    assert out.code == 0
    assert explained(out) == [
        "explain",
        "  backward 1: e.backward()",
        "  [1] MulBackward0 -> e  (node 0)",
        "      received 1.0 (the starting gradient, d root/d root = 1)",
        "      to self: grad * other = 1.0 * 4.0 = 4.0",
        "      to other: grad * self = 1.0 * 5.0 = 5.0",
        "  [2] AccumulateGrad d  (node 4)",
        "      received 5.0 from [1] MulBackward0 (other)",
        "      d.grad = None + 5.0 = 5.0",
        "  [3] AddBackward0 -> c  (node 1)",
        "      received 4.0 from [1] MulBackward0 (self)",
        "      to self: grad = 4.0",
        "      to other: grad = 4.0",
        "  [4] AccumulateGrad a  (node 2)",
        "      received 4.0 from [3] AddBackward0 (self)",
        "      a.grad = None + 4.0 = 4.0",
        "  [5] AccumulateGrad b  (node 3)",
        "      received 4.0 from [3] AddBackward0 (other)",
        "      b.grad = None + 4.0 = 4.0",
    ]


def test_a_value_used_twice_shows_both_contributions_and_their_sum(cli):
    out = cli("eval", "y = x * x; z = y + y", "x=3", "--explain")
    assert explained(out)[6:] == [
        "  [2] MulBackward0 -> y  (node 1)",
        "      received 1.0 from [1] AddBackward0 (self) + 1.0 from [1] AddBackward0 (other) = 2.0",
        "      to self: grad * other = 2.0 * 3.0 = 6.0",
        "      to other: grad * self = 2.0 * 3.0 = 6.0",
        "  [3] AccumulateGrad x  (node 2)",
        "      received 6.0 from [2] MulBackward0 (self) + 6.0 from [2] MulBackward0 (other) = 12.0",
        "      x.grad = None + 12.0 = 12.0",
    ]


def test_broadcasting_shows_the_reduction(cli):
    out = cli("eval", "z = (u * v).sum()", "--var", "u=[[1.0], [2.0]]", "--var", "v=[10., 20., 30.]",
              "--explain")
    lines = explained(out)
    assert lines[7] == ("      to self: grad * other = [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]] * [10.0, 20.0, 30.0], "
                        "summed from shape (2, 3) = [[60.0], [60.0]]")
    assert lines[8] == ("      to other: grad * self = [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]] * [[1.0], [2.0]], "
                        "summed from shape (2, 3) = [3.0, 3.0, 3.0]")


def test_repeat_and_grad_tensor_show_accumulation_pass_by_pass(cli):
    out = cli("eval", "y = x**2", "--var", "x=[1.0, 2.0]", "--grad-tensor", "[0.5, 1.0]", "--repeat", "2",
              "--retain-graph", "--explain")
    assert explained(out) == [
        "explain",
        "  backward 1: y.backward(gradient=[0.5, 1.0])",
        "  [1] PowBackward0 -> y  (node 0)",
        "      received [0.5, 1.0] (--grad-tensor)",
        "      to self: grad * exponent * self**(exponent - 1) = [0.5, 1.0] * 2 * [1.0, 2.0]**(2 - 1) = [1.0, 4.0]",
        "  [2] AccumulateGrad x  (node 1)",
        "      received [1.0, 4.0] from [1] PowBackward0 (self)",
        "      x.grad = None + [1.0, 4.0] = [1.0, 4.0]",
        "  backward 2: y.backward(gradient=[0.5, 1.0])",
        "  [3] PowBackward0 -> y  (node 0)",
        "      received [0.5, 1.0] (--grad-tensor)",
        "      to self: grad * exponent * self**(exponent - 1) = [0.5, 1.0] * 2 * [1.0, 2.0]**(2 - 1) = [1.0, 4.0]",
        "  [4] AccumulateGrad x  (node 1)",
        "      received [1.0, 4.0] from [3] PowBackward0 (self)",
        "      x.grad = [1.0, 4.0] + [1.0, 4.0] = [2.0, 8.0]",
    ]


def test_json_steps_use_the_graph_ids(cli):
    doc = cli("eval", "c = a + b; e = c * d", "a=2", "b=3", "d=4", "--explain", "--trace", "--format", "json").json()
    ids = {n["id"]: n["name"] for n in doc["graph"]["nodes"]}
    assert [(s["node"], s["name"]) for s in doc["steps"]] == [(0, "MulBackward0"), (4, "AccumulateGrad"),
                                                             (1, "AddBackward0"), (2, "AccumulateGrad"),
                                                             (3, "AccumulateGrad")]
    assert all(ids[s["node"]] == s["name"] for s in doc["steps"])
    first = doc["steps"][0]
    assert first["grad_in"] == 1.0
    assert first["grads_out"] == [4.0, 5.0]
    assert first["rules"][0] == {"input": "self", "rule": "grad * other", "worked": "grad * other = 1.0 * 4.0 = 4.0",
                                 "reduced_from": None}
    leaf = doc["steps"][1]
    assert (leaf["variable"], leaf["grad_before"], leaf["grad_after"]) == ("d", None, 5.0)
    assert leaf["received"] == [{"from_step": 1, "from_node": 0, "values": 5.0}]


def test_explain_without_trace_keeps_the_document_free_of_graph(cli):
    doc = cli("eval", "x * 2", "x=1", "--explain", "--format", "json").json()
    assert "graph" not in doc
    assert [s["name"] for s in doc["steps"]] == ["MulBackward0", "AccumulateGrad"]


def test_pretty_explain_is_a_table(cli):
    out = cli("eval", "x * 2", "x=1", "--explain", "--format", "pretty")
    assert out.code == 0
    table = out.stdout[out.stdout.index("┏"):]
    assert table.splitlines()[1] == "┃ step ┃ node             ┃ received                ┃ what it passed on        ┃"
    assert "│ 2    │ AccumulateGrad x │ 2.0 from [1]            │ x.grad = None + 2.0 =    │" in table.splitlines()


def test_a_value_used_many_times_lists_a_few_contributions(cli):
    out = cli("eval", "+".join(["x"] * 10), "x=1", "--explain")
    assert explained(out)[-2] == (
        "      received 1.0 from [1] AddBackward0 (other) + 1.0 from [2] AddBackward0 (other) + 1.0 from [3] "
        "AddBackward0 (other) + ... 6 more + 1.0 from [9] AddBackward0 (other) = 10.0")
