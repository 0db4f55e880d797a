# The traceback entry of the frame an exception unwinds is added before the
# values pending on its stack are released (PyTraceBack_Here at the error
# label, then exception_unwind): a __del__ of a pending temporary sees the
# frame's entry at the head of the traceback.
err = ValueError("x")
seen = []
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        seen.append(err.__traceback__)
        print("del", self.name)
    def __add__(self, o):
        return D(self.name + "+" + o.name)
    def __getitem__(self, k):
        return D(self.name + "[]")
    def __lt__(self, o):
        return D("lt")
    def __bool__(self):
        del self
        boom()
    def __hash__(self):
        # by name, not by id(): a set's order (and so its release order)
        # must not depend on addresses, which differ between CPython runs
        return ord(self.name[0])
    n = 0
    def m(self, *a, **k):
        return D("r")
def boom():
    raise err
def f(*a, **k):
    pass
def done(label, e):
    print(label, [t is e.__traceback__ for t in seen])
    seen.clear()
    err.__traceback__ = None
def c_call():
    try:
        f(D("a"), D("b"), boom())
    except ValueError as e:
        done('call', e)
c_call()
def c_kw():
    try:
        f(D("a"), k=D("k"), j=boom())
    except ValueError as e:
        done('kw', e)
c_kw()
def c_star():
    try:
        f(D("a"), *[D("s")], D("b"), boom())
    except ValueError as e:
        done('star', e)
c_star()
def c_starkw():
    try:
        f(*[D("s")], **{"x": D("x")}, j=boom())
    except ValueError as e:
        done('starkw', e)
c_starkw()
def c_meth():
    try:
        D("self").m(D("a"), boom())
    except ValueError as e:
        done('meth', e)
c_meth()
def c_list():
    try:
        [D("a"), D("b"), boom()]
    except ValueError as e:
        done('list', e)
c_list()
def c_tuple():
    try:
        x = D("a"), boom()
    except ValueError as e:
        done('tuple', e)
c_tuple()
def c_dict():
    try:
        {"a": D("a"), D("bk"): boom()}
    except ValueError as e:
        done('dict', e)
c_dict()
def c_dictstar():
    try:
        {"a": D("a"), **{"b": D("b")}, "c": boom()}
    except ValueError as e:
        done('dictstar', e)
c_dictstar()
def c_set():
    try:
        {D("a"), boom()}
    except ValueError as e:
        done('set', e)
c_set()
def c_setstar():
    try:
        {D("a"), *[D("s")], boom()}
    except ValueError as e:
        done('setstar', e)
c_setstar()
def c_binop():
    try:
        D("a") + boom()
    except ValueError as e:
        done('binop', e)
c_binop()
def c_index():
    try:
        D("a")[boom()]
    except ValueError as e:
        done('index', e)
c_index()
def c_slice():
    try:
        D("a")[D("b"):boom()]
    except ValueError as e:
        done('slice', e)
c_slice()
def c_fstring():
    try:
        f'{D("a")!r:{boom()}}'
    except ValueError as e:
        done('fstring', e)
c_fstring()
print("end")
#: del b
#: del a
#: call [True, True]
#: del k
#: del a
#: kw [True, True]
#: del b
#: del s
#: del a
#: star [True, True, True]
#: del x
#: del s
#: starkw [True, True]
#: del a
#: del self
#: meth [True, True]
#: del b
#: del a
#: list [True, True]
#: del a
#: tuple [True]
#: del bk
#: del a
#: dict [True, True]
#: del a
#: del b
#: dictstar [True, True]
#: del a
#: set [True]
#: del a
#: del s
#: setstar [True, True]
#: del a
#: binop [True]
#: del a
#: index [True]
#: del b
#: del a
#: slice [True, True]
#: del a
#: fstring [True]
#: end
---
# The traceback entry of the frame an exception unwinds is added before the
# values pending on its stack are released (PyTraceBack_Here at the error
# label, then exception_unwind): a __del__ of a pending temporary sees the
# frame's entry at the head of the traceback.
err = ValueError("x")
seen = []
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        seen.append(err.__traceback__)
        print("del", self.name)
    def __add__(self, o):
        return D(self.name + "+" + o.name)
    def __getitem__(self, k):
        return D(self.name + "[]")
    def __lt__(self, o):
        return D("lt")
    def __bool__(self):
        del self
        boom()
    n = 0
    def m(self, *a, **k):
        return D("r")
def boom():
    raise err
def f(*a, **k):
    pass
def done(label, e):
    print(label, [t is e.__traceback__ for t in seen])
    seen.clear()
    err.__traceback__ = None
class O:
    pass
d = O()
d.x = {}
d.y = {}
def c_chain():
    try:
        D("a") < D("b") < boom()
    except ValueError as e:
        done('chain', e)
c_chain()
def c_chainbool():
    try:
        D("a") < D("b") < D("c")
    except ValueError as e:
        done('chainbool', e)
c_chainbool()
def c_and():
    try:
        y = D("a") and 1
    except ValueError as e:
        done('and', e)
c_and()
def c_listcomp():
    try:
        [(D("e"), boom()) for i in range(1)]
    except ValueError as e:
        done('listcomp', e)
c_listcomp()
def c_dictcomp():
    try:
        {D("k"): boom() for i in range(1)}
    except ValueError as e:
        done('dictcomp', e)
c_dictcomp()
def c_storeattr():
    try:
        f(boom()).a = D("v")
    except ValueError as e:
        done('storeattr', e)
c_storeattr()
def c_storeindex():
    try:
        D("o")[D("k"), boom()] = D("v")
    except ValueError as e:
        done('storeindex', e)
c_storeindex()
def c_multi():
    try:
        d.x[boom()] = a = D("v")
    except ValueError as e:
        done('multi', e)
c_multi()
def c_unpack():
    try:
        d.x, d.y[boom()] = D("v"), D("w")
    except ValueError as e:
        done('unpack', e)
c_unpack()
def c_augattr():
    try:
        D("o").n += boom()
    except ValueError as e:
        done('augattr', e)
c_augattr()
def c_augindex():
    try:
        D("o")[D("k")] += boom()
    except ValueError as e:
        done('augindex', e)
c_augindex()
def c_augname():
    try:
        q = D("o")
        q += boom()
    except ValueError as e:
        done('augname', e)
c_augname()
def c_raisefrom():
    try:
        raise err from f(D("c"), boom())
    except ValueError as e:
        done('raisefrom', e)
c_raisefrom()
print("end")
#: del a
#: del lt
#: del b
#: chain [False, True, True]
#: del a
#: del lt
#: del b
#: chainbool [False, True, True]
#: del a
#: and [True]
#: del e
#: listcomp [True]
#: del k
#: dictcomp [True]
#: del v
#: storeattr [True]
#: del k
#: del o
#: del v
#: storeindex [True, True, True]
#: del v
#: multi [True]
#: del w
#: unpack [True]
#: del o
#: augattr [True]
#: del o[]
#: del k
#: del o
#: augindex [True, True, True]
#: augname []
#: del o
#: del c
#: raisefrom [False, True]
#: end
#: <gc at exit>
#: del v
---
# The traceback entry of the frame an exception unwinds is added before the
# values pending on its stack are released (PyTraceBack_Here at the error
# label, then exception_unwind): a __del__ of a pending temporary sees the
# frame's entry at the head of the traceback.
err = ValueError("x")
seen = []
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        seen.append(err.__traceback__)
        print("del", self.name)
    def __add__(self, o):
        return D(self.name + "+" + o.name)
    def __getitem__(self, k):
        return D(self.name + "[]")
    def __lt__(self, o):
        return D("lt")
    def __bool__(self):
        del self
        boom()
    n = 0
    def m(self, *a, **k):
        return D("r")
def boom():
    raise err
def f(*a, **k):
    pass
def done(label, e):
    print(label, [t is e.__traceback__ for t in seen])
    seen.clear()
    err.__traceback__ = None
class It:
    def __iter__(self):
        return self
    def __next__(self):
        del self
        boom()
    def __del__(self):
        seen.append(err.__traceback__)
        print("del it")
def c_for():
    try:
        for x in It():
            pass
    except ValueError as e:
        done("for", e)
c_for()
def c_forbody():
    try:
        for x in [[D("it")]]:
            x = None
            boom()
    except ValueError as e:
        done("forbody", e)
c_forbody()
def c_stariter():
    try:
        f(D("a"), *It())
    except ValueError as e:
        done("stariter", e)
c_stariter()
def c_deco():
    try:
        @f
        @D("d").m
        @(lambda g: boom())
        def h():
            pass
    except ValueError as e:
        done("deco", e)
c_deco()
def c_defaults():
    try:
        def h(a=D("a"), b=boom()):
            pass
    except ValueError as e:
        done("defaults", e)
c_defaults()
def c_classbase():
    try:
        class C(f(D("a"), boom())):
            pass
    except ValueError as e:
        done("classbase", e)
c_classbase()
class M:
    def __del__(self):
        seen.append(err.__traceback__)
        print("del m")
    def __exit__(self, *a):
        pass
def c_with():
    try:
        with M():
            pass
    except TypeError as e:
        print("with", e)
        seen.clear()
c_with()
print("end")
#: del it
#: for [True]
#: del it
#: forbody [True]
#: del it
#: del a
#: stariter [False, True]
#: del d
#: deco [True]
#: del a
#: defaults [True]
#: del a
#: classbase [True]
#: del m
#: with 'M' object does not support the context manager protocol
#: end
---
# Class decorators pending when the class body raises are popped last
# first; the collector's count seen from a __del__ includes the frame's
# traceback entry and frame object (a preallocated exception: no other
# allocation differs).
import gc
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def g2():
    @D("a")
    @D("b")
    class C:
        1/0
try:
    g2()
except ZeroDivisionError:
    print("caught")
m = [0]
def mark():
    m[0] = gc.get_count()[0]
class E:
    def __del__(self):
        print("E", gc.get_count()[0] - m[0])
err = ValueError()
def boom():
    raise err
def h(*a):
    pass
def g3():
    h(E(), mark(), boom())
gc.disable()
try:
    g3()
except ValueError:
    pass
gc.enable()
#: del b
#: del a
#: caught
#: E 4
