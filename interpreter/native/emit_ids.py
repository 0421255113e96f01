"""A list-of-cards action parameter (`ids:`) in the generated C++: the tables that turn its value into its digit
of the action id (runtime.h `ids_dense`, `ids_digit`) and the digit back into the list (`ids_list`).

A list's key is its cards as the digits of a number in base (cards + 1), the first card lowest. Where every key
is small enough (`DENSE`: two cards of 52 make at most 2,862), the digit is read from a table indexed by the key;
otherwise it is found by binary search among the sorted keys. Both give the first id of the list's key."""

from __future__ import annotations

DENSE = 1 << 16  # the most entries of a table indexed by key (2 bytes each, 4 past 32,767 ids)


def _key(xs: list[int], nc: int) -> int:
    k = 0
    for c in reversed(xs):
        k = k * (nc + 1) + c + 1
    return k


def dense_size(ids: list[list[int]], nc: int, limit: int = DENSE) -> int | None:
    """The length of the table indexed by key (the largest key + 1), or None where it would be longer than
    `limit`."""
    keys = [_key(xs, nc) for xs in ids]
    if not keys or min(keys) < 0 or max(keys) >= limit:
        return None
    return max(keys) + 1


def _arr(t: str, n: str, name: str, xs: list[int]) -> str:
    return f"static const {t} {n}{name}[] = {{{', '.join(map(str, xs)) or '0'}}};"


def ids_tables(name: str, ids: list[list[int]], nc: int, limit: int = DENSE) -> list[str]:
    """A list-of-cards parameter's tables: the digit of each key (IDD, indexed by key, -1 where no id has it), or
    each id's key sorted with its position (IDK, IDP); and every id's cards one after another, with where each
    starts (IDI, IDO)."""
    offs = [0]
    for xs in ids:
        offs.append(offs[-1] + len(xs))
    out = [_arr("int", "IDO", name, offs), _arr("int16_t", "IDI", name, [c for xs in ids for c in xs])]
    size = dense_size(ids, nc, limit)
    if size is None:
        keyed = sorted((_key(xs, nc), i) for i, xs in enumerate(ids))
        return [_arr("i64", "IDK", name, [k for k, _ in keyed]), _arr("i64", "IDP", name, [i for _, i in keyed]),
                *out]
    table = [-1] * size
    for i in reversed(range(len(ids))):  # the first id of a key, as the binary search finds it
        table[_key(ids[i], nc)] = i
    return [_arr("int16_t" if len(ids) < 1 << 15 else "int32_t", "IDD", name, table), *out]


def ids_digit(name: str, ids: list[list[int]], nc: int, value: str, limit: int = DENSE) -> str:
    """The C++ expression of the digit of the list `value` (a List), failing where no id is that list."""
    size = dense_size(ids, nc, limit)
    if size is None:
        return f"ids_digit(IDK{name}, IDP{name}, {len(ids)}, {value}, {nc})"
    return f"ids_dense(IDD{name}, {size}, {value}, {nc})"
