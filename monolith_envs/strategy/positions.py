def parse_position(*a, **k):
    raise NotImplementedError
def format_position(*a, **k):
    raise NotImplementedError
