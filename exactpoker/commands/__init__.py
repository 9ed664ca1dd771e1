"""Command-line subcommands, one module per game; each module has ``add_commands(subparsers)``."""

from exactpoker.commands import goldman_stone, newman, von_neumann

COMMAND_MODULES = [von_neumann, newman, goldman_stone]
