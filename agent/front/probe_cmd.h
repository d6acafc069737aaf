/* probe_cmd.h -- `sessmax-agent probe HOST:PORT`: prints what a person needs to pin an RDP
 * server -- its certificate's fingerprint in the plan's `fingerprint:` form, subject, issuer,
 * validity -- and which security layers (TLS, NLA, standard RDP security) it accepts. Connects
 * over TCP only; no user, no password, no logon (agent/pin/pin.h does the probing). */
#ifndef SESSMAX_PROBE_CMD_H
#define SESSMAX_PROBE_CMD_H

/* The command (argv[0] "probe"). Exit codes: 0 the report was printed, 64 usage, 69 the target
 * could not be reached, did not answer within --timeout, or did not answer as an RDP server
 * (one line on stderr: "sessmax-agent probe: HOST:PORT: reason"), 70 internal error. */
int probe_cmd_main(int argc, char **argv);

#endif
