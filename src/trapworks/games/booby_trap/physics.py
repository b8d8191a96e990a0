"""The Booby Trap tray as a 2D rigid-body model (pymunk), seen from above.

Axes: x runs along the tray from the far wall (x = 0) towards the spring bar; y runs across
it (0 .. TRAY_WIDTH). The pieces lie flat (knobs up) between the far wall and the bar's face
at x = bar. The spring pushes the bar towards x = 0. Units: millimetres, grams, seconds.

The tray floor is horizontal, so there is no gravity in the plane; the floor's friction on each
piece is a pivot and a gear joint to the static body whose force is capped at mu*m*g
(Chipmunk's usual top-down friction), which is Coulomb friction, not velocity damping.

Determinism: a packing (piece sizes and rest positions, the bar position) is stored exactly
(floats round-trip through repr), and every computation on it rebuilds a fresh space in a
fixed order (pieces by id) and runs a fixed number of fixed-size steps; nothing reads a clock.
The same packing therefore gives the same outcome, bit for bit, on the same platform
(pymunk/Chipmunk build and CPU floating point); other platforms may differ in the last bits.
"""

from __future__ import annotations

import math
import os
import random
import threading
import types
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pymunk
import pymunk.batch
from pymunk._chipmunk import ffi, lib

INCH = 25.4
MARK = INCH / 4  # the scale beside the bar is marked every 1/4 inch
SIZES = ("S", "M", "L")
SIZE_NAMES = {"S": "small", "M": "medium", "L": "large"}
POINTS = {"S": 1, "M": 2, "L": 3}
PIECES_PER_SIZE = 20

# Piece diameters (mm). Not published: chosen so that 60 pieces, loosely packed under the bar,
# fill a tray of 8.5 x about 8 inches in front of the bar, as in the 12 x 9 inch box.
DIAMETER = {"S": 22.0, "M": 29.0, "L": 38.0}
RADIUS = {s: d / 2 for s, d in DIAMETER.items()}
THICKNESS = 6.0  # mm, polystyrene discs
DENSITY = 1.05e-3  # g/mm^3 (polystyrene)
MASS = {s: DENSITY * THICKNESS * math.pi * RADIUS[s] ** 2 for s in SIZES}  # S 2.4 g, M 4.2 g, L 7.1 g

TRAY_WIDTH = 216.0  # 8.5 inches between the side walls
BAR_BACK = 300.0  # the bar pulled all the way back (its face, mm from the far wall)
# Where the setup drops the mixed pieces: loosely, over a longer strip than the tray holds packed,
# so that random drops do not overlap; the released bar then sweeps them together.
MIX_LENGTH = 560.0
BAR_THICKNESS = 12.0
BAR_MASS = 40.0  # g
# Slow motion: every force (spring, floor friction) is scaled by FORCE_SCALE. Equilibria depend
# only on ratios of forces, so which pieces are held and where the bar rests are unchanged, while
# the motion runs sqrt(1/FORCE_SCALE) ~ 7 times slower; that keeps the fixed 1/120 s step accurate
# (at full strength a piece would move tens of mm per step and the solver could not keep up).
FORCE_SCALE = 0.02
GRAVITY = 9810.0 * FORCE_SCALE  # mm/s^2: only for floor friction
FLOOR_FRICTION = 0.35  # plastic on the cardboard/plastic floor
PIECE_FRICTION = 0.45  # plastic on plastic (Chipmunk multiplies the two shapes' values)
WALL_FRICTION = 0.45
ELASTICITY = 0.1
# The spring: a long soft spring with preload; its force barely changes over the bar's travel.
SPRING_PRELOAD = 2.5e6 * FORCE_SCALE  # g*mm/s^2: 2.5 N at the packed position before scaling
SPRING_RATE = 2.0e3 * FORCE_SCALE  # per mm of travel (2 N/m): pushes harder when pulled back
SPRING_REFERENCE = 200.0  # bar position where the force equals the preload

# Solver settings: fixed, so one packing always gives one outcome.
DT = 1.0 / 120.0
ITERATIONS = 24
WARMUP_STEPS = 40  # steps that rebuild the contact forces of a stored packing before anything else
WARMUP_RAMP = 25  # of which the spring force is ramped up over the first ones
# A rebuilt space has no contact memory: its warm-up finds the forces that hold the stored
# packing. With few solver iterations they come out unconverged, every rebuild nudged the tray
# (the bar crept 0.1-0.5 mm) and a packing that held in one space could slip on when rebuilt,
# by 8-19 mm after removing a piece that carried no load (issue 25). The warm-up therefore
# solves with WARMUP_ITERATIONS, and every step with ITERATIONS: a rebuild's warm-up now moves
# the bar 0.01-0.04 mm (0.1 mm the most seen).
WARMUP_ITERATIONS = 60
SETTLE_CHECK_EVERY = 6
REST_SPEED = 0.3  # mm/s (model time): everything slower than this counts as at rest
REST_CHECKS = 3  # consecutive checks at rest to call the packing settled
# 001 judges a removal by where the bar ends up ("If the spring bar moves one or more markings"),
# so a removal is judged only once the tray is truly at rest. A settle stops when every body (bar
# included) is slower than REST_SPEED at REST_CHECKS checks in a row; that alone is not enough
# (issue 25): a stored packing keeps only positions, not the solver's contact memory, and a tray
# rebuilt from it (as the next touch and the next removal rebuild it) may find other friction
# forces and slip on. So a packing is stored only once it holds: rebuilt, loaded and left until at
# rest, its bar moves less than HOLD_MARKS of a mark from where it is stored. When it does not, the
# rebuilt tray's motion is part of the same removal (the bar's travel is measured to where the tray
# finally holds) and the check runs again on where it stopped. MAX_SETTLE_STEPS caps the steps of
# all of this together (the settles and every check's warm-up and settle): a removal, a set-up or
# a throw-out that reaches it is reported (Removal.at_rest False; the removal event says so),
# never silently judged. bench/booby_trap_settle.py measures both (docs/booby-trap.md).
HOLD_MARKS = 0.1
HOLD = HOLD_MARKS * MARK  # mm
MAX_SETTLE_STEPS = 2_400  # 20 model seconds
FRAME_EVERY = 4  # steps between animation frames sent to the browser

# A piece counts as pushed up on its side or thrown out (a 2D stand-in for leaving the plane)
# when, during the settle after a tripping removal, it is pressed into a neighbour, a wall or the
# bar deeper than this: the real pieces' rounded edges would let it ride up there. Of two pieces
# pressed together the smaller rides up (equal sizes: the one nearer the bar). At rest the
# deepest overlap in a packing is about 0.1-0.25 mm; violent collapses reach 0.5-0.9 mm.
POP_OVERLAP = 0.5  # mm
SQUEEZE_CHECK_EVERY = 1

WALL_CATEGORY = 0b001
BAR_CATEGORY = 0b010
PIECE_CATEGORY = 0b100
FAR_WALL_CATEGORY = 0b1000


def spring_force(bar: float) -> float:
    return SPRING_PRELOAD + SPRING_RATE * (bar - SPRING_REFERENCE)


@dataclass(frozen=True)
class Piece:
    id: int
    size: str
    x: float
    y: float

    @property
    def radius(self) -> float:
        return RADIUS[self.size]


@dataclass(frozen=True)
class Packing:
    """Pieces on the tray (sorted by id) and the bar's face position: a state at rest."""

    pieces: tuple[Piece, ...]
    bar: float

    def by_id(self) -> dict[int, Piece]:
        return {p.id: p for p in self.pieces}

    def without(self, ids: Iterable[int]) -> Packing:
        gone = set(ids)
        return Packing(tuple(p for p in self.pieces if p.id not in gone), self.bar)


@dataclass
class World:
    """A live pymunk space built from a packing."""

    space: pymunk.Space
    bar: pymunk.Body
    bodies: dict[int, pymunk.Body]
    shapes: dict[int, pymunk.Shape]
    joints: dict[int, tuple[pymunk.Constraint, ...]]
    owner: dict[int, int]  # pymunk body id -> piece id (-1: the bar)
    _buffer: pymunk.batch.Buffer = field(default_factory=pymunk.batch.Buffer)

    load: float = 1.0  # fraction of the spring force applied (ramped up after a rebuild)

    def step(self) -> None:
        self.bar.force = (-self.load * spring_force(self.bar_face()), 0.0)
        self.space.step(DT)

    def warm_up(self) -> None:
        """Load a freshly built packing gradually, so the solver builds up the contact forces of
        the stored rest state without the bar lurching (a fresh space has no contact memory)."""
        self.space.iterations = WARMUP_ITERATIONS
        for n in range(1, WARMUP_STEPS + 1):
            self.load = min(1.0, n / WARMUP_RAMP)
            self.step()
        self.space.iterations = ITERATIONS
        self.load = 1.0

    def bar_face(self) -> float:
        return self.bar.position.x - BAR_THICKNESS / 2

    def remove_piece(self, pid: int) -> None:
        self.space.remove(self.bodies.pop(pid), self.shapes.pop(pid), *self.joints.pop(pid))

    def packing(self) -> Packing:
        return Packing(
            tuple(
                Piece(pid, self.shapes[pid].size, float(b.position.x), float(b.position.y))
                for pid, b in sorted(self.bodies.items())
            ),
            # An empty tray lets the bar sink a hair into the far wall (contact slop); the real bar
            # stops at the wall, and a position with the bar behind it would not read back.
            max(0.0, float(self.bar_face())),
        )

    def _arbiters(self, fields) -> tuple[np.ndarray, np.ndarray]:
        """Every contact of the last step read in one call (pymunk.batch): body-id pairs, floats."""
        buf = self._buffer
        buf.clear()
        pymunk.batch.get_space_arbiters(self.space, fields, buf)
        return (
            np.frombuffer(buf.int_buf(), dtype=np.int64).reshape(-1, 2),
            np.frombuffer(buf.float_buf(), dtype=np.float64),
        )

    def _who(self, body_id: int) -> int:
        return self.owner.get(body_id, -2)  # not a piece nor the bar: a wall (the static body)

    def squeezed(self) -> list[int]:
        """Pieces now pressed deeper than POP_OVERLAP into a neighbour, a wall or the bar."""
        pairs, depth = self._arbiters(ARB_IDS | pymunk.batch.ArbiterFields.DISTANCE_1)
        out = set()
        for k in np.nonzero(depth < -POP_OVERLAP)[0]:
            a, b = self._who(int(pairs[k, 0])), self._who(int(pairs[k, 1]))
            if a >= 0 and b >= 0:
                ra, rb = self.shapes[a].radius, self.shapes[b].radius
                if ra != rb:
                    out.add(a if ra < rb else b)
                else:
                    out.add(a if self.bodies[a].position.x > self.bodies[b].position.x else b)
            else:
                out.add(max(a, b))
        return sorted(out)

    def _bodies(self, fields) -> tuple[np.ndarray, np.ndarray]:
        buf = self._buffer
        buf.clear()
        pymunk.batch.get_space_bodies(self.space, pymunk.batch.BodyFields.BODY_ID | fields, buf)
        return np.frombuffer(buf.int_buf(), dtype=np.int64), np.frombuffer(buf.float_buf(), dtype=np.float64)

    def max_speed(self) -> float:
        _, v = self._bodies(pymunk.batch.BodyFields.VELOCITY)
        v = v.reshape(-1, 2)
        return float(np.sqrt((v * v).sum(axis=1)).max()) if len(v) else 0.0

    def positions(self) -> list[list]:
        """[[piece id, x, y], ...] by id, rounded to 0.01 mm (for animation frames)."""
        ids, xy = self._bodies(pymunk.batch.BodyFields.POSITION)
        xy = np.round(xy.reshape(-1, 2), 2).tolist()
        out = [[self._who(i), x, y] for i, (x, y) in zip(ids.tolist(), xy, strict=False) if self._who(i) >= 0]
        out.sort()
        return out

    def contact_forces(self) -> dict[tuple[int, int], float]:
        """Normal force (g*mm/s^2) per touching pair from the last step: keys (a, b) with a < b;
        -1 is the bar, -2 a wall."""
        pairs, imp = self._arbiters(ARB_IDS | pymunk.batch.ArbiterFields.TOTAL_IMPULSE)
        imp = imp.reshape(-1, 2)
        magnitude = np.sqrt((imp * imp).sum(axis=1)) / DT
        forces: dict[tuple[int, int], float] = {}
        for (ia, ib), f in zip(pairs.tolist(), magnitude.tolist(), strict=False):
            a, b = self._who(ia), self._who(ib)
            key = (min(a, b), max(a, b))
            forces[key] = forces.get(key, 0.0) + f
        return forces


ARB_IDS = pymunk.batch.ArbiterFields.BODY_A_ID | pymunk.batch.ArbiterFields.BODY_B_ID


def build_world(packing: Packing) -> World:
    space = pymunk.Space()
    space.iterations = ITERATIONS
    space.gravity = (0.0, 0.0)
    static = space.static_body
    walls = [
        pymunk.Segment(static, (0.0, -20.0), (0.0, TRAY_WIDTH + 20.0), 2.0),  # far wall
        pymunk.Segment(static, (-20.0, 0.0), (MIX_LENGTH + 60.0, 0.0), 2.0),
        pymunk.Segment(static, (-20.0, TRAY_WIDTH), (MIX_LENGTH + 60.0, TRAY_WIDTH), 2.0),
    ]
    # Segments have a radius: move them out so their surface is exactly at 0 / TRAY_WIDTH.
    walls[0].unsafe_set_endpoints((-2.0, -20.0), (-2.0, TRAY_WIDTH + 20.0))
    walls[1].unsafe_set_endpoints((-20.0, -2.0), (MIX_LENGTH + 60.0, -2.0))
    walls[2].unsafe_set_endpoints((-20.0, TRAY_WIDTH + 2.0), (MIX_LENGTH + 60.0, TRAY_WIDTH + 2.0))
    for w in walls:
        w.friction = WALL_FRICTION
        w.elasticity = ELASTICITY
        w.filter = pymunk.ShapeFilter(categories=WALL_CATEGORY)
    # The bar slides clear of the side walls but stops at the far end of the tray.
    walls[0].filter = pymunk.ShapeFilter(categories=FAR_WALL_CATEGORY)
    space.add(*walls)

    bar = pymunk.Body(BAR_MASS, math.inf)
    bar.position = (packing.bar + BAR_THICKNESS / 2, TRAY_WIDTH / 2)
    half_w = TRAY_WIDTH / 2 - 0.5
    bar_shape = pymunk.Poly.create_box(bar, (BAR_THICKNESS, 2 * half_w))
    bar_shape.friction = WALL_FRICTION
    bar_shape.elasticity = ELASTICITY
    bar_shape.filter = pymunk.ShapeFilter(categories=BAR_CATEGORY, mask=PIECE_CATEGORY | FAR_WALL_CATEGORY)
    slide = pymunk.GrooveJoint(
        static, bar, (-100.0, TRAY_WIDTH / 2), (MIX_LENGTH + 100.0, TRAY_WIDTH / 2), (0, 0)
    )
    space.add(bar, bar_shape, slide)

    bodies: dict[int, pymunk.Body] = {}
    shapes: dict[int, pymunk.Shape] = {}
    joints: dict[int, tuple[pymunk.Constraint, ...]] = {}
    for p in packing.pieces:
        r = RADIUS[p.size]
        m = MASS[p.size]
        body = pymunk.Body(m, pymunk.moment_for_circle(m, 0, r))
        body.position = (p.x, p.y)
        shape = pymunk.Circle(body, r)
        shape.friction = PIECE_FRICTION
        shape.elasticity = ELASTICITY
        shape.filter = pymunk.ShapeFilter(categories=PIECE_CATEGORY)
        shape.size = p.size
        slip = pymunk.PivotJoint(static, body, (0, 0), (0, 0))
        slip.max_bias = 0.0
        slip.max_force = FLOOR_FRICTION * m * GRAVITY
        spin = pymunk.GearJoint(static, body, 0.0, 1.0)
        spin.max_bias = 0.0
        spin.max_force = FLOOR_FRICTION * m * GRAVITY * r * 0.5
        space.add(body, shape, slip, spin)
        bodies[p.id], shapes[p.id], joints[p.id] = body, shape, (slip, spin)
    owner = {body.id: pid for pid, body in bodies.items()}
    owner[bar.id] = -1
    return World(space, bar, bodies, shapes, joints, owner)


# --- the lean world: the same Chipmunk calls without pymunk's Python objects --------------------
# A removal and a stress reading build a fresh space from a packing, step it and throw it away.
# pymunk's wrappers (a Python object, a handle and a finaliser per body, shape and joint, checks in
# every step) cost more than the steps of a short settle, so `LeanWorld` makes the very same
# Chipmunk calls, in the very same order, on raw pointers (`pymunk._chipmunk`): the space is the
# same, so every step gives the same numbers, bit for bit (tested against `World`:
# tests/booby_trap/test_physics.py). `World` (pymunk objects) is still what the set-up uses, whose
# gentle release needs a Python velocity function.

_BODY_FIELDS_GET = ffi.addressof(lib, "pmSpaceBodyGetIteratorFuncBatched")
_ARBITER_FIELDS_GET = ffi.addressof(lib, "pmSpaceArbiterIteratorFuncBatched")
_VELOCITY = int(pymunk.batch.BodyFields.VELOCITY.value)
_IDS_POSITION = int((pymunk.batch.BodyFields.BODY_ID | pymunk.batch.BodyFields.POSITION).value)
_IDS_DEPTH = int(
    (
        pymunk.batch.ArbiterFields.BODY_A_ID
        | pymunk.batch.ArbiterFields.BODY_B_ID
        | pymunk.batch.ArbiterFields.DISTANCE_1
    ).value
)
_DEPTH = int(pymunk.batch.ArbiterFields.DISTANCE_1.value)
_IDS_IMPULSE = int(
    (
        pymunk.batch.ArbiterFields.BODY_A_ID
        | pymunk.batch.ArbiterFields.BODY_B_ID
        | pymunk.batch.ArbiterFields.TOTAL_IMPULSE
    ).value
)
# The filters and the zero vector as C structs, made once (pymunk makes them from tuples per call).
_WALL_FILTER = ffi.new("cpShapeFilter *", tuple(pymunk.ShapeFilter(categories=WALL_CATEGORY)))[0]
_FAR_WALL_FILTER = ffi.new("cpShapeFilter *", tuple(pymunk.ShapeFilter(categories=FAR_WALL_CATEGORY)))[0]
_BAR_FILTER = ffi.new(
    "cpShapeFilter *",
    tuple(pymunk.ShapeFilter(categories=BAR_CATEGORY, mask=PIECE_CATEGORY | FAR_WALL_CATEGORY)),
)[0]
_PIECE_FILTER = ffi.new("cpShapeFilter *", tuple(pymunk.ShapeFilter(categories=PIECE_CATEGORY)))[0]
_ZERO = ffi.new("cpVect *", (0.0, 0.0))[0]
# Per size: radius, mass, moment, and the floor friction's caps (the expressions of build_world).
_PIECE_CONSTANTS = {
    size: (
        RADIUS[size],
        MASS[size],
        pymunk.moment_for_circle(MASS[size], 0, RADIUS[size]),
        FLOOR_FRICTION * MASS[size] * GRAVITY,
        FLOOR_FRICTION * MASS[size] * GRAVITY * RADIUS[size] * 0.5,
    )
    for size in SIZES
}
# Body user data, read back as the body's id by pymunk.batch: the static body 0 (walls), the
# bar 1, piece `pid` pid + 2.
_BAR_ID = 1
_PIECE_ID0 = 2
_USER_DATA = [ffi.cast("void *", pid + _PIECE_ID0) for pid in range(4 * PIECES_PER_SIZE * len(SIZES))]


class _Batch:
    """One pymunk.batch query (its fields and buffers), reused for every call on one world."""

    __slots__ = ("address", "buffer", "data", "func", "space", "_ptr", "_view")

    def __init__(self, space: ffi.CData, fields: int, func: ffi.CData):
        self.buffer = pymunk.batch.Buffer()
        self.data = ffi.new("pmBatchedData *")
        self.data.fields = fields
        self.data.floatArray = self.buffer._float_arr
        self.data.intArray = self.buffer._int_arr
        self.space = space
        self.func = func
        self.address = _address(self.data)  # for the compiled settle loop (`_steps`)
        self._ptr: ffi.CData = None  # the float array's memory, and a numpy view of all of it
        self._view: np.ndarray = np.zeros(0)

    def values(self) -> np.ndarray:
        """The floats of the last query, as a view (remade only when pymunk reallocates)."""
        arr = self.buffer._float_arr
        ptr = arr.arr
        # Remade when pymunk reallocates: a new address, or the same one grown in place (realloc
        # may extend a block where it lies; a view of the old size would then miss the new end).
        if ptr != self._ptr or len(self._view) != arr.max:
            self._ptr = ptr
            self._view = np.frombuffer(ffi.buffer(ptr, 8 * arr.max), dtype=np.float64)
        return self._view[: arr.num]

    def bodies(self) -> None:
        self.buffer.clear()
        lib.cpSpaceEachBody(self.space, self.func, self.data)

    def arbiters(self) -> None:
        self.buffer.clear()
        lib.cpSpaceEachCachedArbiter(self.space, self.func, self.data)

    def floats(self) -> np.ndarray:
        return np.frombuffer(self.buffer.float_buf(), dtype=np.float64)

    def ints(self) -> np.ndarray:
        return np.frombuffer(self.buffer.int_buf(), dtype=np.int64)


class LeanWorld:
    """A packing's space made with Chipmunk's own calls (see above); `close()` frees it."""

    def __init__(self, packing: Packing):
        self.built_from = packing
        # What close() frees (removed pieces' too), by kind.
        self._bodies: list[ffi.CData] = []
        self._shapes: list[ffi.CData] = []
        self._joints: list[ffi.CData] = []
        space = self.space = lib.cpSpaceNew()
        lib.cpSpaceSetIterations(space, ITERATIONS)
        lib.cpSpaceSetGravity(space, (0.0, 0.0))
        static = self._keep(self._bodies, lib.cpBodyNewStatic())
        lib.cpSpaceAddBody(space, static)
        walls = [
            self._keep(
                self._shapes, lib.cpSegmentShapeNew(static, (0.0, -20.0), (0.0, TRAY_WIDTH + 20.0), 2.0)
            ),
            self._keep(
                self._shapes, lib.cpSegmentShapeNew(static, (-20.0, 0.0), (MIX_LENGTH + 60.0, 0.0), 2.0)
            ),
            self._keep(
                self._shapes,
                lib.cpSegmentShapeNew(static, (-20.0, TRAY_WIDTH), (MIX_LENGTH + 60.0, TRAY_WIDTH), 2.0),
            ),
        ]
        lib.cpSegmentShapeSetEndpoints(walls[0], (-2.0, -20.0), (-2.0, TRAY_WIDTH + 20.0))
        lib.cpSegmentShapeSetEndpoints(walls[1], (-20.0, -2.0), (MIX_LENGTH + 60.0, -2.0))
        lib.cpSegmentShapeSetEndpoints(
            walls[2], (-20.0, TRAY_WIDTH + 2.0), (MIX_LENGTH + 60.0, TRAY_WIDTH + 2.0)
        )
        for w in walls:
            lib.cpShapeSetFriction(w, WALL_FRICTION)
            lib.cpShapeSetElasticity(w, ELASTICITY)
            lib.cpShapeSetFilter(w, _WALL_FILTER)
        lib.cpShapeSetFilter(walls[0], _FAR_WALL_FILTER)
        for w in walls:
            lib.cpSpaceAddShape(space, w)

        bar = self.bar = self._keep(self._bodies, lib.cpBodyNew(BAR_MASS, math.inf))
        lib.cpBodySetUserData(bar, ffi.cast("void *", _BAR_ID))
        lib.cpBodySetPosition(bar, (packing.bar + BAR_THICKNESS / 2, TRAY_WIDTH / 2))
        half_w = TRAY_WIDTH / 2 - 0.5
        bar_shape = self._keep(self._shapes, lib.cpBoxShapeNew(bar, BAR_THICKNESS, 2 * half_w, 0))
        lib.cpShapeSetFriction(bar_shape, WALL_FRICTION)
        lib.cpShapeSetElasticity(bar_shape, ELASTICITY)
        lib.cpShapeSetFilter(bar_shape, _BAR_FILTER)
        slide = self._keep(
            self._joints,
            lib.cpGrooveJointNew(
                static, bar, (-100.0, TRAY_WIDTH / 2), (MIX_LENGTH + 100.0, TRAY_WIDTH / 2), (0, 0)
            ),
        )
        lib.cpSpaceAddBody(space, bar)
        lib.cpSpaceAddShape(space, bar_shape)
        lib.cpSpaceAddConstraint(space, slide)

        self.pieces: dict[int, tuple[ffi.CData, ffi.CData, ffi.CData, ffi.CData]] = {}
        self.sizes: dict[int, str] = {}
        # The pieces: the calls of build_world's loop, with everything that is not a call to
        # Chipmunk taken out of it (this loop is most of the cost of making a world).
        bodies, shapes, joints = self._bodies, self._shapes, self._joints
        pieces, sizes = self.pieces, self.sizes
        body_new, set_user_data, set_position = lib.cpBodyNew, lib.cpBodySetUserData, lib.cpBodySetPosition
        circle_new, set_friction, set_elasticity, set_filter = (
            lib.cpCircleShapeNew,
            lib.cpShapeSetFriction,
            lib.cpShapeSetElasticity,
            lib.cpShapeSetFilter,
        )
        pivot_new, gear_new = lib.cpPivotJointNew2, lib.cpGearJointNew
        set_max_bias, set_max_force = lib.cpConstraintSetMaxBias, lib.cpConstraintSetMaxForce
        add_body, add_shape, add_constraint = (
            lib.cpSpaceAddBody,
            lib.cpSpaceAddShape,
            lib.cpSpaceAddConstraint,
        )
        zero, piece_filter, user_data = _ZERO, _PIECE_FILTER, _USER_DATA
        for p in packing.pieces:
            pid, size = p.id, p.size
            r, m, moment, slip_force, spin_force = _PIECE_CONSTANTS[size]
            body = body_new(m, moment)
            bodies.append(body)
            set_user_data(body, user_data[pid])
            set_position(body, (p.x, p.y))
            shape = circle_new(body, r, zero)
            shapes.append(shape)
            set_friction(shape, PIECE_FRICTION)
            set_elasticity(shape, ELASTICITY)
            set_filter(shape, piece_filter)
            slip = pivot_new(static, body, zero, zero)
            set_max_bias(slip, 0.0)
            set_max_force(slip, slip_force)
            spin = gear_new(static, body, 0.0, 1.0)
            set_max_bias(spin, 0.0)
            set_max_force(spin, spin_force)
            joints.append(slip)
            joints.append(spin)
            add_body(space, body)
            add_shape(space, shape)
            add_constraint(space, slip)
            add_constraint(space, spin)
            pieces[pid] = (body, shape, slip, spin)
            sizes[pid] = size
        self.load = 1.0
        self.loaded = False  # warm_up has run
        self._speeds = _Batch(space, _VELOCITY, _BODY_FIELDS_GET)
        self._depths = _Batch(space, _DEPTH, _ARBITER_FIELDS_GET)
        self._places = _Batch(space, _IDS_POSITION, _BODY_FIELDS_GET)

    def copy(self) -> LeanWorld:
        """An exact copy of this world (`_worldcopy.c`): a space built from the same packing by
        the same calls, with this one's state written into it. It steps as this world would, bit
        for bit, from here on. Only for a world whose pieces are all still there (nothing
        removed), and only where `world_copies.available()`."""
        if len(self.pieces) != len(self.built_from.pieces):
            raise ValueError("a world with pieces removed is not copied")
        twin = LeanWorld(self.built_from)
        try:
            _worldcopy.copy_state(_address(self.space), _address(twin.space))
        except BaseException:
            twin.close()
            raise
        twin.load, twin.loaded = self.load, self.loaded
        return twin

    @staticmethod
    def _keep(kind: list[ffi.CData], pointer: ffi.CData) -> ffi.CData:
        kind.append(pointer)
        return pointer

    def close(self) -> None:
        """Free the space, then every shape, joint and body it held (removed ones too)."""
        if self.space is not None:
            lib.cpSpaceFree(self.space)
            self.space = None
            for free, kind in (
                (lib.cpShapeFree, self._shapes),
                (lib.cpConstraintFree, self._joints),
                (lib.cpBodyFree, self._bodies),
            ):
                for pointer in kind:
                    free(pointer)
                kind.clear()

    def __enter__(self) -> LeanWorld:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- stepping ---------------------------------------------------------------------
    def step(self) -> None:
        bar = self.bar
        lib.cpBodySetForce(
            bar, (-self.load * spring_force(lib.cpBodyGetPosition(bar).x - BAR_THICKNESS / 2), 0.0)
        )
        lib.cpSpaceStep(self.space, DT)

    def warm_up(self) -> None:
        """As `World.warm_up` (its steps written out, as in `settle`; in C where `_steps`)."""
        if _steps is not None:
            _steps.warm_up(
                _address(self.space),
                _address(self.bar),
                WARMUP_STEPS,
                WARMUP_RAMP,
                WARMUP_ITERATIONS,
                ITERATIONS,
                BAR_THICKNESS / 2,
                SPRING_PRELOAD,
                SPRING_RATE,
                SPRING_REFERENCE,
                DT,
            )
            self.load = 1.0
            self.loaded = True
            return
        space, bar = self.space, self.bar
        set_force, position, step = lib.cpBodySetForce, lib.cpBodyGetPosition, lib.cpSpaceStep
        half, preload, rate, reference, dt = (
            BAR_THICKNESS / 2,
            SPRING_PRELOAD,
            SPRING_RATE,
            SPRING_REFERENCE,
            DT,
        )
        lib.cpSpaceSetIterations(space, WARMUP_ITERATIONS)
        for n in range(1, WARMUP_STEPS + 1):
            load = min(1.0, n / WARMUP_RAMP)
            set_force(bar, (-load * (preload + rate * ((position(bar).x - half) - reference)), 0.0))
            step(space, dt)
        lib.cpSpaceSetIterations(space, ITERATIONS)
        self.load = 1.0
        self.loaded = True

    def run(self, steps: int) -> None:
        """`steps` plain steps (`step`), in C where `_steps`."""
        if _steps is None:
            for _ in range(steps):
                self.step()
            return
        _steps.run(
            _address(self.space),
            _address(self.bar),
            self.load,
            steps,
            BAR_THICKNESS / 2,
            SPRING_PRELOAD,
            SPRING_RATE,
            SPRING_REFERENCE,
            DT,
        )

    def bar_face(self) -> float:
        return float(lib.cpBodyGetPosition(self.bar).x - BAR_THICKNESS / 2)

    def remove_piece(self, pid: int) -> None:
        # The order pymunk's Space.remove(body, shape, slip, spin) uses.
        body, shape, slip, spin = self.pieces.pop(pid)
        space = self.space
        lib.cpSpaceRemoveBody(space, body)
        lib.cpSpaceRemoveShape(space, shape)
        lib.cpSpaceRemoveConstraint(space, slip)
        lib.cpSpaceRemoveConstraint(space, spin)

    # --- reading -------------------------------------------------------------------------
    def packing(self) -> Packing:
        """As `World.packing` (the positions read in one call)."""
        q = self._places
        q.bodies()
        xy = q.floats().reshape(-1, 2).tolist()
        sizes = self.sizes
        rows = sorted(
            (i - _PIECE_ID0, x, y) for i, (x, y) in zip(q.ints().tolist(), xy, strict=True) if i >= _PIECE_ID0
        )
        return Packing(tuple(Piece(pid, sizes[pid], x, y) for pid, x, y in rows), max(0.0, self.bar_face()))

    def max_speed(self) -> float:
        """As `World.max_speed`. sqrt is correctly rounded and increasing, so the square root of
        the largest squared speed is exactly the largest of their square roots."""
        q = self._speeds
        arr = q.buffer._float_arr
        arr.num = 0
        lib.cpSpaceEachBody(self.space, q.func, q.data)
        if not arr.num:
            return 0.0
        v = q.values().reshape(-1, 2)
        return math.sqrt((v * v).sum(axis=1).max())

    def squeezed(self) -> list[int]:
        """As `World.squeezed`; a quick look at the depths first (no contact that deep, no piece)."""
        q = self._depths
        q.arbiters()
        depth = q.floats()
        if not len(depth) or depth.min() >= -POP_OVERLAP:
            return []
        full = _Batch(self.space, _IDS_DEPTH, _ARBITER_FIELDS_GET)
        full.arbiters()
        pairs = full.ints().reshape(-1, 2)
        depth = full.floats()
        out = set()
        for k in np.nonzero(depth < -POP_OVERLAP)[0]:
            a, b = _owner(int(pairs[k, 0])), _owner(int(pairs[k, 1]))
            if a >= 0 and b >= 0:
                ra, rb = RADIUS[self.sizes[a]], RADIUS[self.sizes[b]]
                if ra != rb:
                    out.add(a if ra < rb else b)
                else:
                    xa = lib.cpBodyGetPosition(self.pieces[a][0]).x
                    xb = lib.cpBodyGetPosition(self.pieces[b][0]).x
                    out.add(a if xa > xb else b)
            else:
                out.add(max(a, b))
        return sorted(out)

    def tape(self) -> tuple[float, bytes, bytes]:
        """The positions now, as raw numbers (for an animation frame made later: `frame_of`)."""
        q = self._places
        q.bodies()
        return (self.bar_face(), bytes(q.buffer.int_buf()), bytes(q.buffer.float_buf()))

    def contact_forces(self) -> dict[tuple[int, int], float]:
        """As `World.contact_forces`."""
        q = _Batch(self.space, _IDS_IMPULSE, _ARBITER_FIELDS_GET)
        q.arbiters()
        pairs = q.ints().reshape(-1, 2)
        imp = q.floats().reshape(-1, 2)
        magnitude = np.sqrt((imp * imp).sum(axis=1)) / DT
        forces: dict[tuple[int, int], float] = {}
        for (ia, ib), f in zip(pairs.tolist(), magnitude.tolist(), strict=False):
            a, b = _owner(ia), _owner(ib)
            key = (min(a, b), max(a, b))
            forces[key] = forces.get(key, 0.0) + f
        return forces

    def settle(
        self, max_steps: int | None = None, tape: list | None = None, squeezed: set[int] | None = None
    ) -> int:
        """`settle` on this world: the same steps, the same rest test and the same squeeze
        test, with the per-step work written out (it runs for every step of every removal); in C
        where `_steps` (the same calls and arithmetic: `_worldcopy.c`'s settle)."""
        if max_steps is None:
            max_steps = MAX_SETTLE_STEPS
        if _steps is not None:
            return _steps.settle(
                _address(self.space),
                _address(self.bar),
                self.load,
                max_steps,
                BAR_THICKNESS / 2,
                SPRING_PRELOAD,
                SPRING_RATE,
                SPRING_REFERENCE,
                DT,
                self._speeds.address,
                SETTLE_CHECK_EVERY,
                REST_SPEED,
                REST_CHECKS,
                self._depths.address if squeezed is not None else 0,
                SQUEEZE_CHECK_EVERY,
                -POP_OVERLAP,
                (lambda: squeezed.update(self.squeezed())) if squeezed is not None else None,
                self._places.address if tape is not None else 0,
                FRAME_EVERY,
                tape,
            )
        return self._settle_python(max_steps, tape, squeezed)

    def _settle_python(self, max_steps: int, tape: list | None, squeezed: set[int] | None) -> int:
        """`settle`'s loop in Python (no extension, or TRAPWORKS_PURE_PYTHON)."""
        space, bar, load = self.space, self.bar, self.load
        set_force, position, step = lib.cpBodySetForce, lib.cpBodyGetPosition, lib.cpSpaceStep
        each_arbiter = lib.cpSpaceEachCachedArbiter
        half, preload, rate, reference, dt = (
            BAR_THICKNESS / 2,
            SPRING_PRELOAD,
            SPRING_RATE,
            SPRING_REFERENCE,
            DT,
        )
        depths = self._depths
        depth_arr, depth_func, depth_data = depths.buffer._float_arr, depths.func, depths.data
        frombuffer, buffer, f64 = np.frombuffer, ffi.buffer, np.float64
        view_at, view = None, np.zeros(0)  # a numpy view of the depths' memory (see _Batch.values)
        check = squeezed is not None
        pop = -POP_OVERLAP
        quiet = 0
        for n in range(1, max_steps + 1):
            # World.step: the spring's force on the bar, then one step.
            set_force(bar, (-load * (preload + rate * ((position(bar).x - half) - reference)), 0.0))
            step(space, dt)
            if check and n % SQUEEZE_CHECK_EVERY == 0:
                # The deepest contact first: only a contact deeper than POP_OVERLAP names a piece.
                depth_arr.num = 0
                each_arbiter(space, depth_func, depth_data)
                k = depth_arr.num
                if k:
                    at = depth_arr.arr
                    if at != view_at or len(view) != depth_arr.max:  # moved, or grown in place
                        view_at, view = at, frombuffer(buffer(at, 8 * depth_arr.max), f64)
                    if view[:k].min() < pop:
                        squeezed.update(self.squeezed())  # type: ignore[union-attr]
            if tape is not None and n % FRAME_EVERY == 0:
                tape.append(self.tape())
            if n % SETTLE_CHECK_EVERY == 0:
                quiet = quiet + 1 if self.max_speed() < REST_SPEED else 0
                if quiet >= REST_CHECKS and n < max_steps:
                    return n
        return max_steps


# --- loaded worlds kept for the next removal ------------------------------------------------
# A removal starts from its stored tray rebuilt and loaded (`warm_up`: 40 steps at 60 solver
# iterations, a third of a removal). The hold check that stored the tray (`holds`,
# `_settle_until_it_holds`) has just rebuilt and loaded that very space, so it keeps an exact
# copy of it here (`LeanWorld.copy`, `_worldcopy.c`) and the next removal from that tray takes it
# instead of loading the tray again: the same world, bit for bit, for about a tenth of the cost.
# Where the copy is not available (no compiled extension, another pymunk build, or the process's
# self-check failed) nothing is kept and every removal loads its tray, with the same outcome.

try:
    if os.environ.get("TRAPWORKS_PURE_PYTHON"):
        raise ImportError("TRAPWORKS_PURE_PYTHON is set")
    from . import _worldcopy
except ImportError:  # no compiler at install time: every removal loads its tray
    _worldcopy = None  # type: ignore[assignment]

# The build whose private structures _worldcopy.c is written against (read from its debug data).
WORLD_COPY_PYMUNK = "7.3.1"


def _address(pointer: ffi.CData) -> int:
    return int(ffi.cast("uintptr_t", pointer))


def _init_worldcopy() -> None:
    """Give the extension pymunk's functions that tell the tray's joint kinds apart."""
    _worldcopy.init(
        _address(ffi.addressof(lib, "cpConstraintIsPivotJoint")),
        _address(ffi.addressof(lib, "cpConstraintIsGearJoint")),
        _address(ffi.addressof(lib, "cpConstraintIsGrooveJoint")),
    )


def copy_checks_out(world: LeanWorld, steps: int = 60) -> bool:
    """The self-check before a process keeps its first copy: `world` (just loaded from its
    packing) is copied, the packing is loaded again from scratch, the middle piece is taken out of
    both and they are stepped side by side: they must give the same positions, bit for bit."""
    packing = world.built_from
    with LeanWorld(packing) as fresh, world.copy() as twin:
        fresh.warm_up()
        runs = []
        for w in (fresh, twin):
            if packing.pieces:
                w.remove_piece(packing.pieces[len(packing.pieces) // 2].id)
            tape = []
            for _ in range(steps):
                w.step()
                tape.append(w.tape())
            runs.append((tape, w.packing()))
        return runs[0] == runs[1]


class _WorldCopies:
    """The loaded worlds kept by hold checks, by (packing, the model's settings); each is taken
    once (a removal changes it). The last `size` are kept; a world let go is freed."""

    def __init__(self, size: int = 32):
        self.size = size
        self._worlds: OrderedDict[tuple, LeanWorld] = OrderedDict()
        self._lock = threading.Lock()
        self._checked: bool | None = None
        self.kept = self.taken = 0

    def available(self, world: LeanWorld | None = None) -> bool:
        """Whether worlds are copied in this process: the extension is built for this pymunk and
        the self-check (`copy_checks_out`, run on the first world offered) passed."""
        if self._checked is None:
            if _worldcopy is None or pymunk.version != WORLD_COPY_PYMUNK:
                self._checked = False
            elif world is not None:
                try:
                    self._checked = copy_checks_out(world)
                except ValueError:  # a structure the copy refuses
                    self._checked = False
        return bool(self._checked)

    def keep(self, world: LeanWorld) -> None:
        """Keep a copy of `world`, just loaded from its packing (nothing removed, not settled)."""
        if self.size <= 0 or not self.available(world):
            return
        twin = world.copy()
        key = (world.built_from, _model_key())
        with self._lock:
            old = self._worlds.pop(key, None)
            self._worlds[key] = twin
            self.kept += 1
            evicted = [self._worlds.popitem(last=False)[1] for _ in range(len(self._worlds) - self.size)]
        for w in evicted + ([old] if old is not None else []):
            w.close()

    def take(self, packing: Packing) -> LeanWorld | None:
        """The kept loaded world of `packing`, now the caller's (to close), or None."""
        with self._lock:
            world = self._worlds.pop((packing, _model_key()), None)
            if world is not None:
                self.taken += 1
        return world

    def clear(self) -> None:
        with self._lock:
            worlds = list(self._worlds.values())
            self._worlds.clear()
            self.kept = self.taken = 0
        for w in worlds:
            w.close()


if _worldcopy is not None:
    _init_worldcopy()
world_copies = _WorldCopies()


def _init_steps() -> types.ModuleType | None:
    """The compiled settle loop (`_worldcopy.c`), given the Chipmunk and pymunk functions it
    calls; None (the Python loops) without the extension, with one built before the loop was
    added, or where pymunk's batched buffers are not laid out as the loop reads them."""
    if _worldcopy is None or not hasattr(_worldcopy, "settle"):
        return None
    try:
        if (
            ffi.sizeof("pmFloatArray") != 16
            or ffi.sizeof("pmIntArray") != 16
            or ffi.offsetof("pmBatchedData", "floatArray") != 8
            or ffi.offsetof("pmBatchedData", "fields") != 16
            or ffi.sizeof("cpVect") != 16
        ):
            return None
        addresses = [
            _address(ffi.addressof(lib, name))
            for name in (
                "cpSpaceStep",
                "cpBodySetForce",
                "cpBodyGetPosition",
                "cpSpaceSetIterations",
                "cpSpaceEachBody",
                "cpSpaceEachCachedArbiter",
                "pmSpaceBodyGetIteratorFuncBatched",
                "pmSpaceArbiterIteratorFuncBatched",
            )
        ]
    except (ffi.error, AttributeError, KeyError):  # another pymunk: a type or function it lacks
        return None
    _worldcopy.init_steps(*addresses)
    return _worldcopy


# The settle and warm-up loops in C, or None: the Python loops (the same numbers, slower).
_steps = _init_steps()


def _owner(body_id: int) -> int:
    """Piece id of a body's user data; -1 the bar, -2 a wall (the static body)."""
    return body_id - _PIECE_ID0 if body_id >= _PIECE_ID0 else -1 if body_id == _BAR_ID else -2


def frame_of(tape: tuple[float, bytes, bytes]) -> dict:
    """The animation frame (`snapshot`) of a position taken by `LeanWorld.tape`."""
    bar, ids_raw, xy_raw = tape
    ids = np.frombuffer(ids_raw, dtype=np.int64)
    xy = np.round(np.frombuffer(xy_raw, dtype=np.float64).reshape(-1, 2), 2).tolist()
    pieces = [[_owner(i), x, y] for i, (x, y) in zip(ids.tolist(), xy, strict=False) if i >= _PIECE_ID0]
    pieces.sort()
    return {"bar": round(bar, 2), "pieces": pieces}


def settle(
    world: World,
    max_steps: int | None = None,
    frames: list | None = None,
    squeezed: set[int] | None = None,
) -> int:
    """Step until everything is at rest (or max_steps, by default MAX_SETTLE_STEPS read at call
    time); return the steps taken. Returning max_steps means the cap was hit (reported).

    `frames` collects snapshots every FRAME_EVERY steps; `squeezed` collects the pieces that
    were ever pressed into a neighbour (or a wall, or the bar) deeper than POP_OVERLAP.
    """
    if max_steps is None:
        max_steps = MAX_SETTLE_STEPS
    quiet = 0
    for n in range(1, max_steps + 1):
        world.step()
        if squeezed is not None and n % SQUEEZE_CHECK_EVERY == 0:
            squeezed.update(world.squeezed())
        if frames is not None and n % FRAME_EVERY == 0:
            frames.append(snapshot(world))
        if n % SETTLE_CHECK_EVERY == 0:
            quiet = quiet + 1 if world.max_speed() < REST_SPEED else 0
            if quiet >= REST_CHECKS and n < max_steps:
                return n
    return max_steps


def snapshot(world: World) -> dict:
    return {"bar": round(world.bar_face(), 2), "pieces": world.positions()}


def mixed_pieces(rng: random.Random, per_size: int = PIECES_PER_SIZE) -> list[str]:
    sizes = [s for s in SIZES for _ in range(per_size)]
    rng.shuffle(sizes)
    return sizes


def set_up(seed: int, per_size: int = PIECES_PER_SIZE) -> Packing:
    """001: 'Pull back the spring bar and place the playing pieces ... Mix the pieces and gently
    release the spring bar until it rests against them.'

    The pieces (ids 0.. in a seeded random order of sizes) are dropped at random spots in front of
    the pulled-back bar without overlapping; then the bar is released and the model runs until the
    packing is at rest under the spring and holds when rebuilt (`holds`, as after a removal).
    """
    return set_up_report(seed, per_size)[0]


def _set_up_pile(seed: int, per_size: int) -> Packing:
    """The mixed pieces dropped, the bar gently released, the pymunk world run until at rest."""
    rng = random.Random(f"booby-trap-setup:{seed}")
    sizes = mixed_pieces(rng, per_size)
    placed: list[Piece] = []
    for pid, size in enumerate(sizes):
        r = RADIUS[size]
        for _attempt in range(5000):
            x = rng.uniform(r, MIX_LENGTH - r)
            y = rng.uniform(r, TRAY_WIDTH - r)
            if all((x - q.x) ** 2 + (y - q.y) ** 2 >= (r + q.radius + 0.5) ** 2 for q in placed):
                placed.append(Piece(pid, size, x, y))
                break
        else:  # the tray is full where we looked: retry with the next seed's layout
            raise RuntimeError("could not place the pieces")
    world = build_world(Packing(tuple(placed), MIX_LENGTH))
    # 'gently release': the bar's speed is capped while it closes on the pieces.
    gentle = 300.0

    def capped(body, gravity, damping, dt):
        pymunk.Body.update_velocity(body, gravity, damping, dt)
        if body.velocity.x < -gentle:
            body.velocity = (-gentle, 0.0)

    world.bar.velocity_func = capped
    settle(world, max_steps=2400)
    world.bar.velocity_func = pymunk.Body.update_velocity
    settle(world, max_steps=1200)
    return world.packing()


def _holding(packing: Packing) -> tuple[Packing, bool, int]:
    """The set-up's packing made to hold as a removal's is (`_settle_until_it_holds`): rebuilt
    and left alone its bar moves less than HOLD. Returns (packing, at rest, checks failed)."""
    held, world, n = holds(packing)
    if held:
        world.close()
        return packing, True, 0
    # The rebuilt tray moved on: go on from where it stopped until a stored tray holds.
    after, _steps, at_rest, _popped, failed = _settle_until_it_holds(
        world, packing.bar, WARMUP_STEPS + n, None, None, ()
    )
    return after, at_rest, failed + 1


_SET_UPS: OrderedDict[tuple, tuple[Packing, bool, int]] = OrderedDict()
_SET_UPS_KEPT = 16


def set_up_report(seed: int, per_size: int = PIECES_PER_SIZE) -> tuple[Packing, bool, int]:
    """`set_up` with whether it came to hold within the cap and how many checks failed first.

    The last `_SET_UPS_KEPT` set-ups are kept (by seed, size and the model's settings): a game
    replayed from its record (an undo, a replay page) sets up the same tray again, and the
    set-up's settle costs more than a removal."""
    key = (seed, per_size, _model_key())
    hit = _SET_UPS.get(key)
    if hit is not None:
        _SET_UPS.move_to_end(key)
        return hit
    hit = _SET_UPS[key] = _holding(_set_up_pile(seed, per_size))
    while len(_SET_UPS) > _SET_UPS_KEPT:
        _SET_UPS.popitem(last=False)
    return hit


@dataclass
class Removal:
    """What taking one piece out did."""

    piece: int
    travel: float  # how far the bar moved towards the far wall (mm)
    tripped: bool  # one mark (1/4 inch) or more
    popped: tuple[int, ...]  # other pieces thrown out or pushed up on their sides (only on a trip)
    after: Packing  # the packing at rest afterwards (removed and popped pieces gone)
    steps: int  # simulation steps of the settle
    frames: list = field(default_factory=list)  # frames for the settle animation (frames=True)
    at_rest: bool = True  # False only if the motion reached MAX_SETTLE_STEPS (reported, see there)
    # The same frames as raw positions (tape=True), made into frames only when drawn: `frame_of`.
    tape: list = field(default_factory=list)
    # Times the tray, stored at a pause, did not hold when rebuilt and moved on (`holds`).
    slipped: int = 0

    @property
    def marks(self) -> float:
        return self.travel / MARK


def loaded_world(packing: Packing) -> World:
    """A fresh space for `packing` with the spring's load built up (see World.warm_up)."""
    world = build_world(packing)
    world.warm_up()
    return world


def holds(packing: Packing, max_steps: int | None = None) -> tuple[bool, LeanWorld, int]:
    """The check that makes a stored packing an equilibrium (issue 25): rebuild it as every later
    reading and removal will (a fresh space, loaded by `warm_up`), leave it alone until at rest
    (at most `max_steps`) and see whether the bar stayed within HOLD of where it is stored.
    Returns (held, the world, its settle's steps); the caller goes on with the world (its motion
    belongs to the removal when it did not hold) and closes it."""
    world = LeanWorld(packing)
    world.warm_up()
    loaded = _read_stress(world, packing)  # what stress_of(packing) will give, if it holds
    world_copies.keep(world)  # the loaded tray the next removal from it starts from
    steps = world.settle(max_steps=max_steps)
    held = (
        steps < (MAX_SETTLE_STEPS if max_steps is None else max_steps)
        and abs(packing.bar - world.bar_face()) < HOLD
    )
    if held:
        # As the removal's hold check does: the set-up's tray is read at once (the first touch of
        # a game), and this is the very space a reading would build and load.
        stress_of.remember(packing, loaded)
    return held, world, steps


def _settle_until_it_holds(
    world: LeanWorld,
    start: float,
    steps: int,
    recording: list | None,
    squeezed: set[int] | None,
    popped: tuple[int, ...] | None,
) -> tuple[Packing, int, bool, tuple[int, ...], int]:
    """From a settled live `world`: throw out the squeezed pieces if the bar has tripped (once,
    `popped` None until then), store the packing, check that it holds, and when it does not go on
    with the rebuilt tray's motion (part of the same removal) until it does or the steps reach
    MAX_SETTLE_STEPS. Closes `world`. Returns (packing, steps, at rest, popped, checks failed)."""
    failed = 0
    try:
        while True:
            if popped is None and squeezed is not None and start - world.bar_face() >= MARK:
                # Pieces squeezed hardest by the collapse ride up on their neighbours or jump out:
                # they leave the plane, and the rest settles again without them.
                out = tuple(sorted(pid for pid in squeezed if pid in world.pieces))
                if out:
                    popped = out
                    for pid in popped:
                        world.remove_piece(pid)
                    steps += world.settle(max_steps=max(1, MAX_SETTLE_STEPS - steps), tape=recording)
            last = world.tape() if recording is not None else None
            after = world.packing()
            world.close()
            left = MAX_SETTLE_STEPS - steps - WARMUP_STEPS
            if left <= 0:  # the cap reached: judged where it is, and reported (at rest False)
                if recording is not None:
                    recording.append(last)
                return after, steps, False, popped or (), failed
            # Rebuilt, loaded and left alone: does the stored tray hold?
            world = LeanWorld(after)
            world.warm_up()
            loaded = _read_stress(world, after)  # what stress_of(after) will give, if it is stored
            world_copies.keep(world)  # the loaded tray the next removal from it starts from
            trial: list | None = [] if recording is not None else None
            pressed: set[int] | None = set() if squeezed is not None else None
            n = world.settle(max_steps=left, tape=trial, squeezed=pressed)
            if n < left and abs(after.bar - world.bar_face()) < HOLD:
                if recording is not None:
                    recording.append(last)
                stress_of.remember(after, loaded)
                return after, steps, True, popped or (), failed
            # It did not hold: its motion belongs to this removal.
            failed += 1
            steps += WARMUP_STEPS + n
            if recording is not None and trial is not None:
                recording.extend(trial)
            if squeezed is not None and pressed:
                squeezed.update(pressed)
            if n >= left:
                last = world.tape() if recording is not None else None
                if recording is not None:
                    recording.append(last)
                return world.packing(), steps, False, popped or (), failed
    finally:
        world.close()


def _resolve_removal(packing: Packing, piece: int, frames: bool = False, tape: bool = False) -> Removal:
    """Take `piece` out of the packing at rest, simulate until the tray is truly at rest again
    (it holds when rebuilt: `holds`) and measure the bar's travel over the whole motion. The
    result depends on `packing` and `piece` only.

    `frames`: also the settle animation, a frame every FRAME_EVERY steps (`snapshot`), the first
    with the piece just lifted out, the last at rest. `tape`: the same positions as raw numbers
    (`Removal.tape`), for a caller that makes frames only if someone draws them (`frame_of`).
    Reading positions never changes the simulation: the outcome is the same either way."""
    ids = {p.id for p in packing.pieces}
    if piece not in ids:
        raise ValueError(f"piece {piece} is not on the tray")
    # The stored tray rebuilt and loaded: the copy its hold check kept, or built and loaded now
    # (the same world, bit for bit).
    world = world_copies.take(packing)
    if world is None:
        world = LeanWorld(packing)
    try:
        if not world.loaded:
            world.warm_up()
        start = world.bar_face()
        world.remove_piece(piece)
        recording: list | None = [world.tape()] if frames or tape else None  # the piece just lifted out
        squeezed: set[int] = set()
        steps = world.settle(tape=recording, squeezed=squeezed)
    except BaseException:
        world.close()
        raise
    # Judged at rest: the bar's travel is where the tray finally holds, not where it paused.
    after, steps, at_rest, popped, checks = _settle_until_it_holds(
        world, start, steps, recording, squeezed, None
    )
    travel = start - after.bar
    return Removal(
        piece,
        travel,
        travel >= MARK,
        popped,
        after,
        steps,
        [frame_of(t) for t in recording] if frames and recording is not None else [],
        at_rest,
        recording if tape and recording is not None else [],
        checks,
    )


def _model_key() -> tuple:
    """The settings a removal's outcome depends on that are read when it runs (tests and
    benchmarks change some of them): part of the removal cache's key, so a cached outcome is
    never served under other settings."""
    return (
        HOLD,
        MAX_SETTLE_STEPS,
        REST_SPEED,
        REST_CHECKS,
        SETTLE_CHECK_EVERY,
        SQUEEZE_CHECK_EVERY,
        FRAME_EVERY,
        POP_OVERLAP,
        MARK,
        WARMUP_STEPS,
        WARMUP_RAMP,
        WARMUP_ITERATIONS,
        ITERATIONS,
        DT,
    )


class _ResolveRemoval:
    """`resolve_removal(packing, piece, frames=False, tape=False)`: see `_resolve_removal`.

    A removal's outcome depends on the packing and the piece only (and the model's settings,
    `_model_key`), so the last `size` outcomes are kept (issue 31, item 5: a position's settled
    outcome cached): a game replayed from its record (an undo, a reload, a log or replay page,
    the golden tests), a clone, or a search that tries the same piece on the same tray again
    gets the very `Removal` it got the first time, bit for bit, without running the physics
    again. Each caller gets its own copy (its own frames list; the tape's raw bytes are shared,
    read-only). An outcome computed without the raw positions is computed again, once, when a
    caller asks for them (recording them never changes the simulation)."""

    def __init__(self, size: int = 128):
        self.size = size
        self._cache: OrderedDict[tuple, Removal] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __call__(self, packing: Packing, piece: int, frames: bool = False, tape: bool = False) -> Removal:
        key = (packing, piece, _model_key())
        hit = self._cache.get(key)
        record = frames or tape
        if hit is not None and (hit.tape or not record):
            self._cache.move_to_end(key)
            self.hits += 1
        else:
            self.misses += 1
            hit = _resolve_removal(packing, piece, tape=record)
            self._cache[key] = hit
            self._cache.move_to_end(key)
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return Removal(
            hit.piece,
            hit.travel,
            hit.tripped,
            hit.popped,
            hit.after,
            hit.steps,
            [frame_of(t) for t in hit.tape] if frames else [],
            hit.at_rest,
            list(hit.tape) if tape else [],
            hit.slipped,
        )

    def cache_clear(self) -> None:
        self._cache.clear()
        self.hits = self.misses = 0


resolve_removal = _ResolveRemoval()


@dataclass(frozen=True)
class Stress:
    """The contact forces of a packing at rest, as fractions of the spring's force on the bar."""

    contacts: tuple[tuple[int, int, float], ...]  # (a, b, force); -1 the bar, -2 a wall
    load: dict  # piece id -> sum of the contact forces on it / spring force (its "tension")
    bar_force: float


def _read_stress(world: LeanWorld, packing: Packing) -> Stress:
    """The stress network of `packing` from its world just loaded (`warm_up`)."""
    spring = spring_force(world.bar_face())
    raw = world.contact_forces()
    contacts = tuple(sorted((a, b, f / spring) for (a, b), f in raw.items() if f > 0.0))
    load = {p.id: 0.0 for p in packing.pieces}
    for a, b, f in contacts:
        for end in (a, b):
            if end >= 0:
                load[end] += f
    return Stress(contacts, load, spring)


class _StressOf:
    """`stress_of(packing)`: the stress network ("stress arches" of 001) of a packing: rebuilt,
    loaded, read out. Cached (the last 256 packings): clones of a state and agents ask for the
    same packing again and again. A removal's hold check builds and loads the very space a
    reading of the packing it stores would build, so it leaves that reading here (`remember`):
    the same numbers, bit for bit, without building the space twice."""

    def __init__(self, size: int = 256):
        self.size = size
        self._cache: OrderedDict[Packing, Stress] = OrderedDict()

    def __call__(self, packing: Packing) -> Stress:
        hit = self._cache.get(packing)
        if hit is not None:
            self._cache.move_to_end(packing)
            return hit
        with LeanWorld(packing) as world:
            world.warm_up()
            stress = _read_stress(world, packing)
        self.remember(packing, stress)
        return stress

    def remember(self, packing: Packing, stress: Stress) -> None:
        self._cache[packing] = stress
        self._cache.move_to_end(packing)
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)

    def cache_clear(self) -> None:
        self._cache.clear()


stress_of = _StressOf()
