"""Who is on the other end: the one client address every per-address limit uses, and the
origins a browser page of ours can have.

Behind a reverse proxy every connection comes from the proxy, and the client's own address is
in ``X-Forwarded-For``. That header is whatever the sender wrote, so it is believed only from
the proxies the operator names (``--trusted-proxies``): walking the header from the right,
each hop a trusted proxy added is skipped, and the first address that is not a trusted proxy
is the client. Without trusted proxies the socket's peer address counts, always.

IPv6 clients are limited by their /64 prefix: one home or phone is usually given a whole /64,
so counting single IPv6 addresses would give one client billions of fresh limits.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

IPV6_PREFIX = 64  # see the module's docstring
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def parse_networks(text: str | Iterable[str]) -> tuple[Network, ...]:
    """``"10.0.0.0/8, 127.0.0.1 ::1"`` as networks (a single address is a /32 or /128).
    Raises ``ValueError`` naming the entry that is not one."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    networks = []
    for part in parts:
        try:
            networks.append(ipaddress.ip_network(part.strip(), strict=False))
        except ValueError:
            raise ValueError(f"expected an address or a CIDR network, got {part!r}") from None
    return tuple(networks)


def client_address(peer: str | None, forwarded_for: list[str], trusted: tuple[Network, ...]) -> str:
    """The client's address: the socket's ``peer``, or, when the peer is a trusted proxy, the
    first hop of ``X-Forwarded-For`` (all its values, in order) from the right that is not a
    trusted proxy. A hop that is not an address ends the walk at the proxy that wrote it."""
    if peer is None:
        return ""
    nearest = _parse(peer)
    if nearest is None or not _trusted(nearest, trusted):
        return str(nearest) if nearest is not None else peer
    hops = [hop.strip() for value in forwarded_for for hop in value.split(",")]
    for hop in reversed([h for h in hops if h]):
        address = _parse(hop)
        if address is None:
            break  # garbage: believe nothing further left than the proxy that passed it on
        nearest = address
        if not _trusted(address, trusted):
            break
    return str(nearest)


def limit_key(address: str) -> str:
    """What a per-address limit counts: the address, or its /64 for IPv6."""
    parsed = _parse(address)
    if parsed is None:
        return address
    if parsed.version == 4:
        return str(parsed)
    return str(ipaddress.ip_network(f"{parsed}/{IPV6_PREFIX}", strict=False))


def is_loopback(address: str) -> bool:
    parsed = _parse(address)
    return parsed is not None and parsed.is_loopback


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, as a browser writes it in ``Origin`` (lower case, no
    default port, no path)."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    port = f":{parts.port}" if parts.port is not None and parts.port != default else ""
    return f"{scheme}://{host}{port}"


def default_origins(host: str, port: int) -> frozenset[str]:
    """The pages of ours a browser can open when no ``--public-url`` is given: this host and
    port, and, for a server listening on loopback or on every address, ``localhost`` and the
    loopback addresses; on every address (a LAN party), also this machine's own addresses."""
    hosts = {host if ":" not in host else f"[{host}]"}
    if host in WILDCARD_HOSTS or is_loopback(host) or host == "localhost":
        hosts.update(LOOPBACK_NAMES)
    if host in WILDCARD_HOSTS:
        hosts.update(a if ":" not in a else f"[{a}]" for a in machine_addresses())
    return frozenset(origin_of(f"http://{h}:{port}") for h in hosts if h)


def machine_addresses() -> set[str]:
    """This machine's own addresses, as far as can be told without a network: those its name
    resolves to, and the one it would use to reach the outside (a UDP socket's connect sends
    nothing)."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.add(str(info[4][0]).split("%")[0])
    except OSError:
        pass
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                found.add(udp.getsockname()[0].split("%")[0])
        except OSError:
            pass
    return {a for a in found if a and a not in WILDCARD_HOSTS}


def _parse(text: str) -> Address | None:
    """An address, from ``1.2.3.4``, ``1.2.3.4:5678``, ``::1``, ``[::1]:80`` or
    ``::ffff:1.2.3.4`` (given as the IPv4 address it maps)."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]  # IPv4 with a port
    try:
        address = ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, trusted: tuple[Network, ...]) -> bool:
    return any(address.version == net.version and address in net for net in trusted)
