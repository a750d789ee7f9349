"""Compiled code raises what CPython raises, and a compile error points at the user's line."""

import script


@script.script
def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


@script.script
def find(xs: list[int], target: int) -> int:
    return xs.index(target)


def main():
    print(mean([1.0, 2.0, 4.0]))
    for f, args in ((mean, ([],)), (find, ([1, 2, 3], 7))):
        try:
            f(*args)
        except Exception as e:  # noqa: BLE001 - to show what was raised
            print(f"{f.__name__}{args}: {type(e).__name__}: {e}")

    def add_one(n: int) -> int:
        return n + "one"             # CPython's TypeError, raised when it runs, as CPython does

    try:
        script.script(add_one)(1)
    except TypeError as e:
        print("TypeError:", e)

    def bad(n: int) -> int:
        with open("data.txt"):       # outside the compiled subset: refused at this line
            return n

    try:
        script.script(bad)(1)
    except script.CompileError as e:
        print("CompileError:", e)


if __name__ == "__main__":
    main()
