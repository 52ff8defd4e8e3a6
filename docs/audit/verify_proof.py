#!/usr/bin/env python3
"""Checks a payment proof of the ledger gateway with nothing but the file and Python's standard
library (docs/audit.md#payment-proofs). Usage: verify_proof.py PROOF.json [--key PUBLIC_KEY.pem]
Exit 0 and "OK: ..." when it holds; exit 1 and "INVALID: <the first thing wrong>" otherwise."""
import base64, hashlib, json, sys

# Ed25519 verification, the reference algorithm (RFC 8032, section 5.1.7).
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)

def recover_x(y, sign):
    if y >= P: return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    if x2 == 0: return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P: x = x * SQRT_M1 % P
    if (x * x - x2) % P: return None
    return P - x if (x & 1) != sign else x

def point_add(a, b):
    e, f = (a[1] - a[0]) * (b[1] - b[0]) % P, (a[1] + a[0]) * (b[1] + b[0]) % P
    g, h = 2 * a[3] * b[3] * D % P, 2 * a[2] * b[2] % P
    e, f, g, h = f - e, h - g, h + g, f + e
    return (e * f % P, g * h % P, f * g % P, e * h % P)

def point_mul(s, pt):
    q = (0, 1, 1, 0)
    while s:
        if s & 1: q = point_add(q, pt)
        pt, s = point_add(pt, pt), s >> 1
    return q

def decompress(b):
    y = int.from_bytes(b, 'little')
    x = recover_x(y & ((1 << 255) - 1), y >> 255)
    return None if x is None else (x, y & ((1 << 255) - 1), 1, x * (y & ((1 << 255) - 1)) % P)

GY = 4 * pow(5, P - 2, P) % P
G = (recover_x(GY, 0), GY, 1, recover_x(GY, 0) * GY % P)

def ed25519_verify(pub, msg, sig):
    a, r = decompress(pub), decompress(sig[:32])
    s = int.from_bytes(sig[32:], 'little')
    if a is None or r is None or s >= L: return False
    h = int.from_bytes(hashlib.sha512(sig[:32] + pub + msg).digest(), 'little') % L
    lhs, rhs = point_mul(s, G), point_add(r, point_mul(h, a))
    return (lhs[0] * rhs[2] - rhs[0] * lhs[2]) % P == 0 and (lhs[1] * rhs[2] - rhs[1] * lhs[2]) % P == 0

SPKI_PREFIX = bytes.fromhex('302a300506032b6570032100')

def public_key_der(pem):
    body = ''.join(l for l in pem.strip().splitlines() if not l.startswith('-----'))
    der = base64.b64decode(body)
    if len(der) != 44 or not der.startswith(SPKI_PREFIX): raise ValueError('not an Ed25519 public key in PEM (SPKI)')
    return der

# Canonical JSON, as the gateway writes it: keys sorted by UTF-16 code units, no whitespace, numbers as JavaScript writes them.
def js_number(f):
    if isinstance(f, int): return str(f)
    if f != f or f in (float('inf'), float('-inf')): return 'null'
    if f == 0: return '0'
    sign, r = ('-', repr(-f)) if f < 0 else ('', repr(f))
    mant, exp = (r.split('e') + ['0'])[:2]
    ip, fp = (mant.split('.') + [''])[:2]
    s = ip + fp
    n = int(exp) + len(ip) - (len(s) - len(s.lstrip('0')))
    digits = s.strip('0'); k = len(digits)
    if k <= n <= 21: out = digits + '0' * (n - k)
    elif 0 < n <= 21: out = digits[:n] + '.' + digits[n:]
    elif -6 < n <= 0: out = '0.' + '0' * -n + digits
    else: out = digits[0] + ('.' + digits[1:] if k > 1 else '') + 'e' + ('+' if n - 1 > 0 else '-') + str(abs(n - 1))
    return sign + out

def canon(v):
    if v is None or isinstance(v, bool): return {None: 'null', True: 'true', False: 'false'}[v]
    if isinstance(v, str): return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (int, float)): return js_number(v)
    if isinstance(v, list): return '[' + ','.join(canon(x) for x in v) + ']'
    return '{' + ','.join(canon(k) + ':' + canon(v[k]) for k in sorted(v, key=lambda k: k.encode('utf-16-be'))) + '}'

def chain_hash(prev, stream_id, version, e):
    text = canon(['event-chain/1', prev or '', stream_id, str(version), e['type'], e['schema_version'], e['data'], e['metadata']])
    return hashlib.sha256(text.encode('utf-8')).hexdigest()

def node(l, r): return hashlib.sha256(b'\x01' + l + r).digest()

def root_from_path(leaf, index, size, path):  # RFC 9162, section 2.1.3.2
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0: return None
        if fn & 1 or fn == sn:
            r = node(p, r)
            while not fn & 1 and fn: fn, sn = fn >> 1, sn >> 1
        else: r = node(r, p)
        fn, sn = fn >> 1, sn >> 1
    return r if sn == 0 else None

HEX = set('0123456789abcdef')
def is_hash(h): return isinstance(h, str) and len(h) == 64 and set(h) <= HEX

def check(proof, key_pem=None):
    der = public_key_der(proof['public_key'])
    if key_pem is not None and public_key_der(key_pem) != der: return 'public_key is not the key given: the proof was signed by another key'
    text = proof['checkpoint_text']
    lines = text.split('\n')
    if len(lines) != 7 or lines[0] != 'ledger-gateway audit checkpoint v1' or lines[6] != '': return 'checkpoint_text is malformed'
    fields = dict(l.split(' ', 1) for l in lines[1:6])
    if fields.get('key') != hashlib.sha256(der).hexdigest(): return 'checkpoint_text names another key than public_key'
    sig = base64.b64decode(proof['signature'], validate=True)
    if len(sig) != 64 or base64.b64encode(sig).decode() != proof['signature'] or not ed25519_verify(der[12:], text.encode('utf-8'), sig):
        return "bad signature: signature is not public_key's signature of checkpoint_text"
    size, root = int(fields['size']), bytes.fromhex(fields['root'])
    if proof['stream_id'] != 'payment-' + proof['trans_id']: return 'stream_id must be payment-<trans_id>'
    prev, last_leaf = None, -1
    for i, e in enumerate(proof['events']):
        name = 'event %d (version %s, %s)' % (i, e.get('version'), e.get('type'))
        if e.get('version') != str(i):
            if str(e.get('version')).isdigit() and int(e['version']) > i: return 'event version %d is missing: events[%d] is version %s' % (i, i, e['version'])
            return 'events out of order: events[%d] is version %s, expected %d' % (i, e.get('version'), i)
        if not is_hash(e['chain_hash']): return name + ': chain_hash is not 64 lowercase hex digits'
        index = e['leaf_index']
        if not isinstance(index, int) or isinstance(index, bool) or index <= last_leaf or index >= size:
            return name + ': leaf_index %s is not after the previous event\'s and inside the tree of %d' % (index, size)
        if not all(is_hash(h) for h in e['inclusion_path']): return name + ': inclusion_path must be a list of 64-hex-digit hashes'
        path = [bytes.fromhex(h) for h in e['inclusion_path']]
        leads = lambda h: root_from_path(hashlib.sha256(b'\x00' + bytes.fromhex(h)).digest(), index, size, path) == root
        recomputed = chain_hash(prev, proof['stream_id'], i, e)
        if not leads(e['chain_hash']):
            if recomputed != e['chain_hash'] and leads(recomputed): return name + ': chain_hash was edited: the content proves another hash'
            return name + ': inclusion_path does not lead from its chain_hash to the signed root (path, leaf_index or chain_hash edited)'
        if recomputed != e['chain_hash']: return name + ': content edited: its type, schema_version, data or metadata does not hash to its chain_hash'
        prev, last_leaf = e['chain_hash'], index
    if not proof['events']: return '"events" is missing or empty'
    return None

def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != '--key'): sys.exit(__doc__)
    key = open(argv[3]).read() if len(argv) == 4 else None
    try:
        with open(argv[1], encoding='utf-8') as f: proof = json.load(f)
        problem = check(proof, key)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        problem = 'malformed proof: %s' % error
    if problem:
        print('INVALID: ' + problem); return 1
    fields = dict(l.split(' ', 1) for l in proof['checkpoint_text'].split('\n')[1:6])
    print('OK: %d events of %s proven in the tree of %s events, root %s, signed at %s'
          % (len(proof['events']), proof['trans_id'], fields['size'], fields['root'], fields['time']))
    for e in proof['events']: print('  %s %s' % (e['version'], e['type']))
    return 0

if __name__ == '__main__': sys.exit(main(sys.argv))
