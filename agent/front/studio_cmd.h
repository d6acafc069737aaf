/* studio_cmd.h -- `sessmax-agent studio`: one live session served to a browser for writing a
 * workload by pointing (docs/studio.md). */
#ifndef SESSMAX_STUDIO_CMD_H
#define SESSMAX_STUDIO_CMD_H

/* The command's main (argv[0] "studio"); returns the process exit code. */
int studio_cmd_main(int argc, char **argv);

#endif
