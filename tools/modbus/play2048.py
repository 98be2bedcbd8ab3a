"""Plays 2048 through `fbd serve`'s Modbus map with pymodbus, a client nobody here wrote:
start, then MOVES moves (coils 0..3), each read back after the lockout (discrete input 0) is
released and at least 10 scans (input registers 20..23) went by. Prints a JSON line per move
(the board before and after, the direction, the score gained, game over) for the caller to
judge, then the exception code of a read of an unmapped register and of a write (expected 2,
and 1 when the server refuses writes).

usage: play2048.py HOST PORT MOVES"""

import sys, time, json
from pymodbus.client import ModbusTcpClient
host, port, moves = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
c = ModbusTcpClient(host, port=port)
assert c.connect()
def regs():
    r = c.read_input_registers(0, count=24)
    assert not r.isError(), r
    v = r.registers
    return v[:16], (v[16] << 16) | v[17], (v[20] << 48) | (v[21] << 32) | (v[22] << 16) | v[23]
def busy():
    r = c.read_discrete_inputs(0, count=3)
    assert not r.isError(), r
    return r.bits[0], r.bits[1]
def settle(after):
    for _ in range(4000):
        b, over = busy()
        _, _, scan = regs()
        if not b and scan >= after:
            return over
        time.sleep(0.002)
    raise SystemExit("the program did not settle")
_, _, scan = regs()
w = c.write_coil(4, True)  # start
if w.isError():
    # Writes refused: say how, and that nothing moved.
    print(json.dumps({"write_exception": getattr(w, "exception_code", None), "board": regs()[0]}))
    sys.exit(0)
settle(scan + 10)
dirs = [0, 1, 2, 3]
for k in range(moves):
    before, score, scan = regs()
    d = dirs[(k * 3 + k // 5) % 4]
    w = c.write_coil(d, True)
    assert not w.isError(), w
    over = settle(scan + 10)
    after, score2, _ = regs()
    print(json.dumps({"before": before, "dir": d, "after": after, "gain": score2 - score, "over": over}))
    sys.stdout.flush()
    if over:
        break
# An address the map does not hold, and a write to a read-only table.
r = c.read_input_registers(500, count=1)
print(json.dumps({"bad_address_exception": getattr(r, "exception_code", None)}))
c.close()
