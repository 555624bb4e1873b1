"""A self-signed serving certificate for the loopback Kubernetes API.

kubectl (client-go) sends no credentials over plain HTTP (kubernetes/kubectl#744): a
bearer token in the kubeconfig is used only for ``https://`` servers. The API is served
over TLS with a certificate made here at start (EC P-256, valid for ``127.0.0.1``,
``::1`` and ``localhost``); the kubeconfig hands out the certificate itself as
``certificate-authority-data``, so clients verify the server without a skip flag.
"""

from __future__ import annotations

import base64
import datetime
import ipaddress
import os
import ssl
import tempfile
from dataclasses import dataclass

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

VALID_DAYS = 30


@dataclass(frozen=True)
class ServingCert:
    cert_pem: bytes
    key_pem: bytes

    @property
    def ca_data(self) -> str:
        """The certificate as kubeconfig's ``certificate-authority-data`` (base64 PEM)."""
        return base64.b64encode(self.cert_pem).decode()

    def ssl_context(self) -> ssl.SSLContext:
        """A server context holding the certificate and key (loaded via a private temp dir)."""
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        with tempfile.TemporaryDirectory() as tmp:
            cert, key = os.path.join(tmp, "tls.crt"), os.path.join(tmp, "tls.key")
            with open(cert, "wb") as fh:
                fh.write(self.cert_pem)
            with open(key, "wb") as fh:
                fh.write(self.key_pem)
            ctx.load_cert_chain(cert, key)
        return ctx


def self_signed(hosts: tuple[str, ...] = ("127.0.0.1", "::1", "localhost")) -> ServingCert:
    """A fresh self-signed certificate (its own CA) for ``hosts``."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "kube-apiserver")])
    sans: list[x509.GeneralName] = []
    for host in hosts:
        try:
            sans.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            sans.append(x509.DNSName(host))
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_encipherment=False,
                key_cert_sign=True,
                content_commitment=False,
                data_encipherment=False,
                key_agreement=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
        )
        .add_extension(x509.SubjectAlternativeName(sans), critical=False)
        .sign(key, hashes.SHA256())
    )
    return ServingCert(
        cert.public_bytes(serialization.Encoding.PEM),
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
    )
