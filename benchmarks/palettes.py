"""The palettes seen with colour vision deficiency: the least colour difference between the board's roles.

For every palette of ``gamelib.palette.PALETTES`` (or the ones named), and for each of normal
vision, deuteranopia, protanopia and tritanopia (Machado, Oliveira and Fernandes 2009, at full
severity, as the ``colorspacious`` package simulates them), at normal light and at low light,
prints the least CIEDE2000 difference between any two of the roles a player must tell apart on
the board: the two players (tokens and cursor), the empty field, a dark LED and the highlight
(a full column's flash), with the pair that gives it.

The LEDs' light is modelled from what the driver does: a channel's value goes through the
driver's gamma table to one of 32 levels (``gamelib.backends.senselib.GAMMA_DEFAULT``; nothing
under 48 lights), the light is taken as linear in the level (PWM), level 31 the display's white.
Low light is measured both ways the backend dims: the driver's low-light table (``GAMMA_LOW``)
and the software dimming used where the driver refuses it (``SOFT_LOW_LIGHT`` then the default
table).

``--search`` also prints the best first/second/field/flash colours over a grid of colours the LEDs
can show (channels 0 or 48-255; the background black), by that least difference over every vision
and light, and the best players' colours with the default's blue field and white flash: how the
colour-blind palettes were chosen (``purple-yellow`` the first, ``green-pink`` the second).

Needs ``colorspacious`` (``pip install colorspacious``; the game does not).
Run: ``python benchmarks/palettes.py [--search] [NAME ...]``.
"""
from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # colorspacious' own dependency
from colorspacious import cspace_convert

from gamelib.backends.senselib import GAMMA_DEFAULT, GAMMA_LOW, SOFT_LOW_LIGHT
from gamelib.palette import PALETTES, Palette

ROLES = ("first", "second", "field", "background", "flash")
VISIONS = (("normal", None), ("deuteranopia", "deuteranomaly"), ("protanopia", "protanomaly"),
           ("tritanopia", "tritanomaly"))
LIGHTS = ("normal", "low (driver)", "low (software)")


def levels(rgb: np.ndarray, light: str) -> np.ndarray:
    """The LED levels (0-31) of channel values ``rgb`` (..., 3) at ``light``."""
    values = np.asarray(rgb, dtype=int)
    if light == "normal":
        return np.take(GAMMA_DEFAULT, values >> 3)
    if light == "low (driver)":
        return np.take(GAMMA_LOW, values >> 3)
    return np.take(GAMMA_DEFAULT, np.take(SOFT_LOW_LIGHT, values) >> 3)


def seen_srgb(rgb: np.ndarray, light: str) -> np.ndarray:
    """What the LEDs emit for ``rgb``, as sRGB (0-1): linear light level/31, encoded."""
    linear = levels(rgb, light) / 31.0
    return np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * np.power(linear, 1 / 2.4) - 0.055)


def lab(srgb: np.ndarray, cvd: object) -> np.ndarray:
    """CIELab of ``srgb`` as seen with the deficiency ``cvd`` (``None``: normal vision)."""
    if cvd is not None:
        srgb = np.clip(cspace_convert(srgb, {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 100}, "sRGB1"), 0, 1)
    return cspace_convert(srgb, "sRGB1", "CIELab")


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005), elementwise over the last axis."""
    L1, a1, b1 = np.moveaxis(np.asarray(lab1, float), -1, 0)
    L2, a2, b2 = np.moveaxis(np.asarray(lab2, float), -1, 0)
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean ** 7 / (c_mean ** 7 + 25.0 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dl = L2 - L1
    dc = c2p - c1p
    dh = h2p - h1p
    dh = np.where(c1p * c2p == 0, 0, np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh)))
    dH = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    l_mean = (L1 + L2) / 2
    cp_mean = (c1p + c2p) / 2
    hsum = h1p + h2p
    h_mean = np.where(c1p * c2p == 0, hsum,
                      np.where(np.abs(h1p - h2p) <= 180, hsum / 2,
                               np.where(hsum < 360, (hsum + 360) / 2, (hsum - 360) / 2)))
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6)) - 0.20 * np.cos(np.radians(4 * h_mean - 63)))
    d_theta = 30 * np.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * np.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25.0 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -np.sin(np.radians(2 * d_theta)) * r_c
    return np.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dH / s_h) ** 2 + r_t * (dc / s_c) * (dH / s_h))


# Sharma, Wu and Dalal's test data, its first pairs: (Lab 1, Lab 2, CIEDE2000)
SHARMA = (((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
          ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
          ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
          ((50.0, 2.5, 0.0), (50.0, 3.2592, 0.335), 1.0000),
          ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
          ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441))


def least(palette: Palette) -> Dict[Tuple[str, str], Tuple[float, str]]:
    """For each (vision, light): the least difference between two roles of ``palette`` and the pair."""
    colours = np.array([getattr(palette, role) for role in ROLES])
    out = {}
    for (vision, cvd), light in itertools.product(VISIONS, LIGHTS):
        seen = lab(seen_srgb(colours, light), cvd)
        best = (float("inf"), "")
        for i, j in itertools.combinations(range(len(ROLES)), 2):
            d = float(ciede2000(seen[i], seen[j]))
            if d < best[0]:
                best = (d, f"{ROLES[i]}/{ROLES[j]}")
        out[vision, light] = best
    return out


def table(names: Sequence[str]) -> None:
    print("least CIEDE2000 between two of: " + ", ".join(ROLES))
    header = f"{'palette':<14} {'light':<15} " + " ".join(f"{v:>24}" for v, _ in VISIONS)
    print(header)
    for name in names:
        figures = least(PALETTES[name])
        for light in LIGHTS:
            cells = [f"{figures[v, light][0]:5.1f} {figures[v, light][1]:>18}" for v, _ in VISIONS]
            print(f"{name:<14} {light:<15} " + " ".join(cells))
        worst = min(figures.values())
        print(f"{name:<14} {'least of all':<15} {worst[0]:.1f} ({worst[1]})")


GRID = (0, 48, 96, 128, 160, 208, 255)
"""The channel values searched (0, or 48 and up: what the LEDs light)."""


def search(top: int = 6, steps: Sequence[int] = GRID, *, default_field: bool = False) -> None:
    """The best (first, second, field, flash) over a grid of LED colours, the background black: the best
    triples by their least difference (with black), then each one's best flash.  ``default_field``: the
    field and the flash are the default palette's (blue, white), only the players are searched."""
    grid = np.array([c for c in itertools.product(steps, repeat=3) if any(c)])
    base = PALETTES["default"]
    fixed = np.array([base.background] + ([base.field, base.flash] if default_field else []))
    n = len(grid)
    pair = np.full((n, n), np.inf)
    to_fixed = np.full(n, np.inf)
    for (_, cvd), light in itertools.product(VISIONS, LIGHTS):
        seen = lab(seen_srgb(grid, light), cvd)
        seen_fixed = lab(seen_srgb(fixed, light), cvd)
        pair = np.minimum(pair, ciede2000(seen[:, None, :], seen[None, :, :]))
        to_fixed = np.minimum(to_fixed, ciede2000(seen[:, None, :], seen_fixed[None, :, :]).min(axis=1))
    np.fill_diagonal(pair, -1)

    def shown(index: int) -> str:
        return "(" + ", ".join(str(int(v)) for v in grid[index]) + ")"

    print(f"\nsearch: {n} colours (channels {', '.join(map(str, steps))}), the background black"
          + (", the field blue and the flash white (the default's)" if default_field else ""))
    if default_field:
        scores = np.minimum(pair, np.minimum(to_fixed[:, None], to_fixed[None, :]))
        print("least   first             second")
        for index in np.argsort(scores, axis=None)[::-1][:2 * top:2]:   # each pair twice (either order)
            i, j = divmod(int(index), n)
            print(f"{float(scores[i, j]):5.1f}   {shown(i):<17} {shown(j)}")
        return
    triples: List[Tuple[float, int, int, int]] = []
    for i in range(n):
        # first i, second j > i (the players are interchangeable), field k
        s = np.minimum(np.minimum(pair[i][:, None], pair[i][None, :]), pair)
        s = np.minimum(s, np.minimum(to_fixed[:, None], to_fixed[None, :]))
        s = np.minimum(s, to_fixed[i])
        s[: i + 1, :] = -1
        for index in np.argsort(s, axis=None)[-50:]:
            j, k = divmod(int(index), n)
            triples.append((float(s[j, k]), i, j, k))
    triples.sort(reverse=True)
    found = []
    for score, i, j, k in triples[:2000]:
        flash = np.minimum(np.minimum(pair[i], pair[j]), np.minimum(pair[k], to_fixed))
        f = int(np.argmax(flash))
        found.append((min(score, float(flash[f])), i, j, k, f))
    found.sort(reverse=True)
    print("least   first             second            field             flash")
    for score, i, j, k, f in found[:top]:
        print(f"{score:5.1f}   {shown(i):<17} {shown(j):<17} {shown(k):<17} {shown(f)}")


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--search", action="store_true", help="also search a grid of colours for the best palette")
    parser.add_argument("names", nargs="*", help="palettes to measure (default: every one)")
    args = parser.parse_args(argv)
    for lab1, lab2, want in SHARMA:
        got = float(ciede2000(np.array(lab1), np.array(lab2)))
        assert abs(got - want) < 1e-4, (lab1, lab2, got, want)
    cpu, wall = time.process_time(), time.perf_counter()
    table(args.names or list(PALETTES))
    if args.search:
        search()
        search(default_field=True)
    print(f"\ncpu {time.process_time() - cpu:.2f} s, wall {time.perf_counter() - wall:.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
