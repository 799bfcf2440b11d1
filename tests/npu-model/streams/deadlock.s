; deadlock.s: EXEC waits for a token no LOAD ever gives.
NOP
ENOP pop_prev=1
