from .cli.quick import main

main()
