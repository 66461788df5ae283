# Lists the mutation sites of one Python file for ratchet tasks mutate:
# python3 pymut.py FILE prints a JSON list of sites, each the kind, the
# function, the line, and the byte span to replace with its replacement.
# Only function bodies are mutated, one site at a time.
import ast
import json
import sys

FLIP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
ORDER = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
SWAP = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod)
NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def body_nodes(fn):
    """The nodes of fn's body, not those of functions or classes inside it."""
    stack = list(reversed(fn.body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, NESTED):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def plus_one(node):
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return repr(node.value + 1)
    text = ast.unparse(node)
    if isinstance(node, (ast.BinOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.UnaryOp)):
        text = "(" + text + ")"
    return text + " + 1"


def main():
    src = open(sys.argv[1], "rb").read()
    tree = ast.parse(src)
    starts = [0]
    for line in src.split(b"\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    sites = []
    # A method is named with its class, a nested function with what holds
    # it (Queue.push, outer.inner): two classes' __init__ are two groups.
    qualname = {}

    def name_all(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualname[id(child)] = prefix + child.name
                name_all(child, prefix + child.name + ".")
            else:
                name_all(child, prefix)

    name_all(tree, "")

    def add(kind, fn, node, repl):
        sites.append({
            "kind": kind, "func": qualname[id(fn)], "line": node.lineno,
            "start": starts[node.lineno - 1] + node.col_offset,
            "end": starts[node.end_lineno - 1] + node.end_col_offset,
            "repl": repl,
        })

    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        bounds = set()
        for node in body_nodes(fn):
            if isinstance(node, ast.Compare) and len(node.ops) == 1:
                op = type(node.ops[0])
                if op in FLIP:
                    add("flip", fn, node, ast.unparse(ast.Compare(node.left, [FLIP[op]()], node.comparators)))
                if op in ORDER:
                    right = node.comparators[0]
                    add("swap", fn, node, ast.unparse(ast.Compare(right, [node.ops[0]], [node.left])))
                    add("bound", fn, right, plus_one(right))
                    bounds.add(id(right))
            elif isinstance(node, ast.BinOp) and isinstance(node.op, SWAP):
                add("swap", fn, node, ast.unparse(ast.BinOp(node.right, node.op, node.left)))
            elif isinstance(node, ast.Constant) and id(node) not in bounds:
                if type(node.value) is bool:
                    add("constant", fn, node, repr(not node.value))
                elif type(node.value) is int:
                    add("constant", fn, node, repr(node.value + 1))
            for field in ("body", "orelse", "finalbody"):
                stmts = getattr(node, field, None)
                if not isinstance(stmts, list) or len(stmts) < 2 or isinstance(node, NESTED):
                    continue
                for s in stmts:
                    if isinstance(s, (ast.Assign, ast.AugAssign)) or isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
                        add("drop", fn, s, "pass")
        if len(fn.body) >= 2:
            for s in fn.body:
                if isinstance(s, (ast.Assign, ast.AugAssign)) or isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
                    add("drop", fn, s, "pass")
    json.dump(sites, sys.stdout)


main()
