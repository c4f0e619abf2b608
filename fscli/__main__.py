from fscli.cli.main import console

console()
