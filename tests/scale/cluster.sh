# tests/scale/cluster.sh: a single-node Slurm on this machine, in a temporary
# folder, on the loopback address only (sourced by tests/scale/run.sh).
#   cluster_start DIR   munged, slurmctld, slurmd; 0 when a job can run
#   cluster_stop        scontrol shutdown, munged killed (run from a trap)
# The daemons log to files in DIR, never to the test's output.

# A free TCP port on 127.0.0.1 above 20000 (none listening on it now).
free_port() {
  local p
  for p in $(seq "$1" 65000); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  return 1
}

cluster_start() {
  cdir=$1
  mkdir -p "$cdir/munge" "$cdir/state" "$cdir/spool" "$cdir/log"
  chmod 700 "$cdir/munge"
  dd if=/dev/urandom of="$cdir/munge/munge.key" bs=1024 count=1 status=none && chmod 400 "$cdir/munge/munge.key"
  munged --force --key-file="$cdir/munge/munge.key" --socket="$cdir/munge/socket" \
    --pid-file="$cdir/munge/munged.pid" --log-file="$cdir/log/munged.log" --seed-file="$cdir/munge/seed" \
    >/dev/null 2>&1 || return 1
  local cport dport
  cport=$(free_port 26817) || return 1
  dport=$(free_port $((cport + 1))) || return 1
  cat >"$cdir/slurm.conf" <<CONF
ClusterName=tessel-test
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmctldPort=$cport
SlurmdPort=$dport
AuthType=auth/munge
AuthInfo=socket=$cdir/munge/socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
StateSaveLocation=$cdir/state
SlurmdSpoolDir=$cdir/spool
SlurmctldPidFile=$cdir/slurmctld.pid
SlurmdPidFile=$cdir/slurmd.pid
SlurmctldLogFile=$cdir/log/slurmctld.log
SlurmdLogFile=$cdir/log/slurmd.log
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,default_queue_depth=10000
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
MaxArraySize=10001
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MpiDefault=none
MailProg=/bin/true
KillWait=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
CONF
  export SLURM_CONF=$cdir/slurm.conf
  slurmctld -f "$SLURM_CONF" >>"$cdir/log/slurmctld.out" 2>&1 || return 1
  slurmd -f "$SLURM_CONF" >>"$cdir/log/slurmd.out" 2>&1 || return 1
  local i
  for i in $(seq 100); do
    if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then return 0; fi
    sleep 0.2
  done
  return 1
}

# Whether any of the pids runs.
any_alive() { local pid; for pid in "$@"; do kill -0 "$pid" 2>/dev/null && return 0; done; return 1; }

cluster_stop() {
  [ -n "${cdir:-}" ] || return 0
  local f pid slurm="" munge i
  for f in slurmd.pid slurmctld.pid; do
    pid=$(cat "$cdir/$f" 2>/dev/null) && [ -n "$pid" ] && slurm="$slurm $pid"
  done
  munge=$(cat "$cdir/munge/munged.pid" 2>/dev/null)
  [ -f "$cdir/slurm.conf" ] && scontrol -f "$cdir/slurm.conf" shutdown >/dev/null 2>&1
  # slurmctld saves its state first: up to 10 s, then TERM, then KILL.
  for i in $(seq 100); do any_alive $slurm || break; sleep 0.1; done
  # shellcheck disable=SC2086
  for pid in $slurm $munge; do kill "$pid" 2>/dev/null; done
  for i in $(seq 30); do any_alive $slurm $munge || break; sleep 0.1; done
  for pid in $slurm $munge; do kill -KILL "$pid" 2>/dev/null; done
  return 0
}
