/* link.h -- the agent's side of the controller link (`sessmax-agent connect HOST:PORT`).
 * Owned by the controller issue; main.c only dispatches to link_main(). */
#ifndef SESSMAX_LINK_H
#define SESSMAX_LINK_H

/* argv[0] is "connect". Returns the process exit code. */
int link_main(int argc, char **argv);

#endif
