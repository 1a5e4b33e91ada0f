"""Which address a request counts as, and which origins are ours."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tertulia.server.addresses import (
    client_address,
    default_origins,
    limit_key,
    origin_of,
    parse_networks,
)
from tertulia.server.config import Config

PROXY = parse_networks("10.0.0.0/8 127.0.0.1")


def test_without_trusted_proxies_the_socket_peer_counts_whatever_the_header_says():
    """ "only then is X-Forwarded-For believed; otherwise the socket's peer address counts"."""
    assert client_address("127.0.0.1", ["203.0.113.9"], ()) == "127.0.0.1"
    assert client_address("198.51.100.4", ["203.0.113.9"], PROXY) == "198.51.100.4"


def test_behind_trusted_proxies_the_first_untrusted_hop_from_the_right_is_the_client():
    # The client wrote a fake first hop; the proxies appended the real one, then their own.
    header = ["6.6.6.6, 203.0.113.9", "10.1.2.3"]
    assert client_address("127.0.0.1", header, PROXY) == "203.0.113.9"
    assert client_address("10.0.0.2", ["203.0.113.9:4321"], PROXY) == "203.0.113.9"
    assert client_address("10.0.0.2", ["[2001:db8::7]:443"], PROXY) == "2001:db8::7"


def test_a_hop_that_is_not_an_address_stops_the_walk_at_the_proxy_that_passed_it_on():
    assert client_address("10.0.0.2", ["203.0.113.9, unknown"], PROXY) == "10.0.0.2"
    assert client_address("10.0.0.2", [], PROXY) == "10.0.0.2"


def test_an_ipv4_mapped_peer_counts_as_its_ipv4_address():
    assert client_address("::ffff:127.0.0.1", ["203.0.113.9"], PROXY) == "203.0.113.9"
    assert limit_key("::ffff:203.0.113.9") == "203.0.113.9"


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(st.ip_addresses(v=6).filter(lambda a: a.ipv4_mapped is None))
def test_ipv6_clients_are_limited_by_their_64_prefix(address):
    key = limit_key(str(address))
    assert key.endswith("/64")
    neighbour = address.exploded[:19] + ":ffff:ffff:ffff:ffff"
    assert limit_key(neighbour) == key


def test_ipv4_clients_are_limited_by_their_own_address():
    assert limit_key("203.0.113.9") == "203.0.113.9"
    assert limit_key("203.0.113.9") != limit_key("203.0.113.10")


def test_a_bad_trusted_proxy_entry_is_named():
    with pytest.raises(ValueError, match="nonsense"):
        parse_networks("10.0.0.0/8, nonsense")


def test_origins_are_compared_with_their_scheme_and_port():
    """ "Checked against --public-url and the allowed origins, scheme included"."""
    assert origin_of("https://Play.Example.org/some/path") == "https://play.example.org"
    assert origin_of("https://play.example.org:443") == "https://play.example.org"
    assert origin_of("http://play.example.org:8080/") == "http://play.example.org:8080"
    config = Config(public_url="https://play.example.org", allowed_origins=("https://b.org/",))
    assert config.origins() == {"https://play.example.org", "https://b.org"}


def test_without_a_public_url_a_loopback_server_takes_its_own_loopback_names():
    origins = Config(host="127.0.0.1", port=8000).origins()
    assert {"http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"} <= origins
    assert "http://127.0.0.1:8001" not in origins
    assert "https://127.0.0.1:8000" not in origins


def test_a_server_on_every_address_takes_this_machines_addresses_too(monkeypatch):
    import tertulia.server.addresses as addresses

    monkeypatch.setattr(addresses, "machine_addresses", lambda: {"192.168.1.20", "fe80::1"})
    origins = default_origins("0.0.0.0", 8000)
    assert "http://192.168.1.20:8000" in origins and "http://[fe80::1]:8000" in origins
    assert "http://localhost:8000" in origins
    assert default_origins("192.168.1.20", 8000) == {"http://192.168.1.20:8000"}
