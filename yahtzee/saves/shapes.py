"""The JSON the saves files hold, as types: what the encoders write is checked against them."""
from collections.abc import Mapping, Sequence
from typing import Union

# A JSON value as written (read back, every value is checked before it is trusted).
JSONValue = Union[None, bool, int, float, str, Sequence["JSONValue"], Mapping[str, "JSONValue"]]
# A JSON object as written: what a file holds, or an object within it.
JSONObject = dict[str, JSONValue]
