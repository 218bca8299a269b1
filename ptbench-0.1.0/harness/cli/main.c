/* SPDX-License-Identifier: MIT */
#include "cli/cli.h"

int main(int argc, char **argv)
{
	return ptb_cli_main(argc, argv);
}
