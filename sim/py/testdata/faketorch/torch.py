# A stand-in for torch in interpreter tests: every attribute, call and
# operator yields another fake, capitalised names are subclassable classes.
class _Fake:
    def __init__(self, *args, **kwargs):
        pass
    def __getattr__(self, name):
        if name[:1].isupper():
            return _make_class(name)
        return _Fake()
    def __call__(self, *args, **kwargs):
        return _Fake()
    def __iter__(self):
        return iter([])
    def __len__(self):
        return 0
    def __getitem__(self, key):
        return _Fake()
    def __setitem__(self, key, value):
        pass
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False
    def __format__(self, spec):
        return "0"
    def __repr__(self):
        return "fake"
    def __int__(self):
        return 0
    def __float__(self):
        return 0.0
    def __index__(self):
        return 0
    def __bool__(self):
        return False
    def __lt__(self, other):
        return False
    __gt__ = __le__ = __ge__ = __lt__
    def __hash__(self):
        return 0
    def __eq__(self, other):
        return self is other
    def _op(self, *other):
        return _Fake()
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _op
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __matmul__ = _op
    __pow__ = __rpow__ = __mod__ = __neg__ = __iadd__ = __imul__ = __isub__ = _op
    __itruediv__ = _op

_classes = {}

def _make_class(name):
    if name not in _classes:
        def __call__(self, *args, **kwargs):
            return self.forward(*args, **kwargs)
        _classes[name] = type(name, (_Fake,), {"__call__": __call__})
    return _classes[name]

def __getattr__(name):
    if name[:1].isupper():
        return _make_class(name)
    return _Fake()

def memory_allocated(*args):
    return 0
