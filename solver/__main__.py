from yatzy.cli import main

main(prog_name="yatzy")
