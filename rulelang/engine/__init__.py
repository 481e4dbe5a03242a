"""The engine: a compiled IR becomes Python (codegen) and runs as a Game and its Matches, with boards,
chance and hidden information. It imports nothing from the language front end."""
