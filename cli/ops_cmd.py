"""(being written)"""

COMMANDS: list = []
