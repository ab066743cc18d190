"""HTTP caching of public answers: an ETag over the body and `Cache-Control: no-cache`, so a
client or proxy may keep the answer but asks again every time (a 304 when nothing changed): the
answer is never served stale after a change."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified

CACHE_CONTROL = "public, no-cache"


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'


def conditional(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Set ETag and Cache-Control on a 200; answer 304 when the client already has this body."""
    if response.status_code != 200 or response.streaming:
        return response
    tag = etag_of(response.content)
    asked = request.META.get("HTTP_IF_NONE_MATCH", "")
    if asked and (asked.strip() == "*" or tag in [t.strip().removeprefix("W/") for t in asked.split(",")]):
        response = HttpResponseNotModified()
    response["ETag"] = tag
    response["Cache-Control"] = CACHE_CONTROL
    return response
