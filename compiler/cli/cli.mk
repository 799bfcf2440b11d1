# compiler/cli/cli.mk: the command line: `tessel` and its subcommands' dispatch
# (main.c), the one option parser every subcommand uses (cli_opts.c), compare.
# Library build/lib/libtessel-cli.a (compiler/rules.mk).

COMPILER_cli_SRCS := compiler/cli/main.c compiler/cli/cli.c compiler/cli/cli_opts.c compiler/cli/compare_cli.c compiler/cli/operators_cli.c
