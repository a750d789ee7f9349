"""Classes with private names (`self.__x`, `self.__helper()`), as real code writes them:
CPython mangles them to `_Class__x` (tests/test_private_names.py)."""

from __future__ import annotations


class Account:
    def __init__(self, owner: str, balance: int) -> None:
        self.owner = owner
        self.__balance = balance
        self.__log = [balance]

    def __check(self, amount: int) -> None:
        if amount > self.__balance:
            raise ValueError(f"{self.owner}: cannot take {amount} from {self.__balance}")

    def withdraw(self, amount: int) -> int:
        self.__check(amount)
        self.__balance -= amount
        self.__log.append(-amount)
        return self.__balance

    def history(self) -> list[int]:
        return self.__log


class Slotted:
    __slots__ = ("__v", "w")

    def __init__(self, v: int) -> None:
        self.__v = v
        self.w = 2 * v

    def bump(self, k: int) -> int:
        self.__v += k
        return self.__v


class Savings(Account):
    def __init__(self, owner: str, balance: int) -> None:
        super().__init__(owner, balance)
        self.__balance = -1             # Savings' own: _Savings__balance beside _Account__balance

    def both(self) -> tuple:
        return self.__balance, self.withdraw(0)


class __Quiet:                          # a name of underscores and letters: mangles as "Quiet"
    def __init__(self) -> None:
        self.__x = 3

    def get(self) -> int:
        __local = self.__x * 2          # locals are mangled too, consistently

        def __twice(v):
            return v * 2
        try:
            raise KeyError(__local)
        except KeyError as __e:
            return __twice(__local) + len(str(__e))


Quiet = __Quiet


def transactions(amounts):
    a = Account("ann", 10)
    out = []
    for x in amounts:
        try:
            out.append(a.withdraw(x))
        except ValueError as e:
            out.append(str(e))
    return out, a.history()


def made(n):
    return Account("bo", n)


def slots(n):
    s = Slotted(n)
    return s.bump(1), s.bump(n), s.w


def subclass(n):
    s = Savings("cy", n)
    return s.both()


def quiet():
    return Quiet().get()


def take(a, k):
    return a.withdraw(k)
