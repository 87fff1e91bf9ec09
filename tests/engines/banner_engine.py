"""A correct engine that prints banners and notes, some starting with "move"."""

from _stub import Stub, say


class Banner(Stub):
    name = "banner"

    def on_start(self):
        say("Banner engine 1.0")
        say("move generator: spiral")
        say("moves are written as XXXX")
        say("move XXXX")

    def reply(self):
        say("movegen: thinking")
        say("move ordering done")
        say("Searching 3/5")
        return "move " + self.choose()


if __name__ == "__main__":
    Banner().run()
