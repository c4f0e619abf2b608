from fscli.cli.main import main

main()
