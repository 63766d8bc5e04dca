"""Table columns gathered out of records in one pass (``tichusim.games.arrow``'s plain fields).

A block's records are rows of a structured array; a table column of a plain field is that
field of every row, narrowed to the column's type. ``gather`` reads the records tile by tile
(a tile of rows stays in the first-level cache while each of its fields is copied out) and
writes each field into its row of an output array of its width, at rows ``at`` onwards, so a
caller can fill a whole table's columns part by part without a copy between.

Narrowing keeps a value's low bytes (little-endian, as numpy's ``astype`` does for integers
that fit); a one-byte field goes through a table of 256 bytes (the identity, or a text
column's dictionary codes by the field's value).
"""

from .jit import njit

__all__ = ["TILE", "gather"]

TILE = 256  # rows per tile: 256 records of 160 bytes fill 40 KiB, about the first-level cache


@njit(cache=True)
def gather(src1, src2, src8, at, fields, tables, out1, out2, out8):
    """Copy each field of every record into its output row.

    ``src1``, ``src2``, ``src8``: the same records, ``(rows, record bytes / width)`` views as
    ``uint8``, ``uint16`` and ``uint64``. ``fields``: one row per field, ``(width, place,
    column)``: the field's width in bytes (1, 2 or 8), its place among the record's units of
    that width (byte offset // width) and its row in the output of that width. ``tables``:
    ``(fields, 256)`` bytes, a 1-byte field's value ``v`` written as ``tables[f, v]`` (the
    other widths' rows unused). ``out1``, ``out2``,
    ``out8``: ``(columns, table rows)`` of each width; record ``i`` goes to ``at + i``."""
    rows = src1.shape[0]
    for start in range(0, rows, TILE):
        end = min(rows, start + TILE)
        for f in range(fields.shape[0]):
            width, place, column = fields[f, 0], fields[f, 1], fields[f, 2]
            if width == 8:
                wide = out8[column]
                for i in range(start, end):
                    wide[at + i] = src8[i, place]
            elif width == 2:
                half = out2[column]
                for i in range(start, end):
                    half[at + i] = src2[i, place]
            else:
                byte, table = out1[column], tables[f]
                for i in range(start, end):
                    byte[at + i] = table[src1[i, place]]
