# compiler/cli/cli.mk: The command line: `tessel` and its subcommands' dispatch (main.c), compare.
# Library build/lib/libtessel-cli.a (compiler/rules.mk).

COMPILER_cli_SRCS := compiler/cli/main.c compiler/cli/cli.c compiler/cli/compare_cli.c
