"""Words of the game in English, Norwegian (bokmål) and Swedish: box names
as the source texts print them, the rows of the scorecard ("protokoll") and
the messages of ``yatzy play``.

Box names typed by a player are accepted in any of the languages
(``box_index``): the rules' own names and aliases first, then the names
printed here, so ``tre like`` finds ``three_of_a_kind`` under American rules
too.  Boxes without a translation (Maxi's in Swedish) print their English
name.
"""

from __future__ import annotations

from solver.errors import InputError
from solver.rules.ruleset import Rules

LANGS = ("en", "nb", "sv")

BOXES: dict[str, dict[str, str]] = {
    "nb": {"ones": "enere", "twos": "toere", "threes": "treere", "fours": "firere",
           "fives": "femmere", "sixes": "seksere", "one_pair": "ett par", "two_pairs": "to par",
           "three_of_a_kind": "tre like", "four_of_a_kind": "fire like",
           "small_straight": "liten straight", "large_straight": "stor straight",
           "full_house": "hus", "chance": "sjanse", "yatzy": "yatzy", "yahtzee": "yatzy",
           # Maxi Yatzy (docs/rules.md, "Maxi Yatzy")
           "three_pairs": "tre par", "five_of_a_kind": "fem like", "full_straight": "full straight",
           "hut": "hytte", "house": "hus", "tower": "tårn", "maxi_yatzy": "maxi yatzy"},
    "sv": {"ones": "ettor", "twos": "tvåor", "threes": "treor", "fours": "fyror",
           "fives": "femmor", "sixes": "sexor", "one_pair": "par", "two_pairs": "två par",
           "three_of_a_kind": "tretal", "four_of_a_kind": "fyrtal",
           "small_straight": "liten stege", "large_straight": "stor stege",
           "full_house": "kåk", "chance": "chans", "yatzy": "yatzy", "yahtzee": "yatzy"},
}

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "sum": "Sum", "bonus": "Bonus", "total": "Total", "yahtzee_bonus": "Yahtzee bonus",
        "bank": "Bank",
        "turn": "{name}'s turn ({n} of {of})",
        "rolled": "{name} rolls {dice}, {left} left",
        "left": "{n} reroll(s)",
        "decide": "{name}> ",
        "dice_prompt": "{name}, type the dice> ",
        "reroll_prompt": "{name}, type the {n} new dice> ",
        "computer": "{name} ({kind}): {action}",
        "scored": "{name} scores {points} in {box}",
        "best": "best choice",
        "cost": "that cost {loss} points; best was {best}",
        "top3": "three good choices: {choices}",
        "saved": "game saved to {path}",
        "undone": "undone: {move}",
        "redone": "redone: {move}",
        "nothing_undo": "nothing to undo",
        "nothing_redo": "nothing to redo",
        "over": "game over",
        "place": "{place}. {name} {score}",
        "tie": "tie between {names}",
        "winner": "{name} wins",
        "review": "review of {name}: total loss {total}, mean loss {mean} "
                  "per decision ({n} decisions)",
        "costly": "  turn {turn} roll {roll}, dice {dice}: {chosen}, best {best} "
                  "(loss {loss})",
        "expected": "expected final score {ev}",
        "weighted": "× column",
        "expected_bound": "final score {ev} if the columns are played one by one "
                          "from here (a lower bound: the strategy scores more)",
        "bound_note": "bound: exact final score if the columns are played one by one after "
                      "this turn (a lower bound); order and loss: the strategy's",
        "help_columns": "score BOX@C (or just BOX@C) writes in column C, e.g. score chance@3",
        "error": "error: {text}",
        "unknown_command": "unknown command '{word}' (type help)",
        "unknown_box": "unknown box '{name}'",
        "box_filled": "{box} is already filled",
        "box_not_now": "{box} may not take {dice} now",
        "forced_box": "the order says {box} now",
        "name_column": "name the column: {box}@1..{n}",
        "not_among": "{dice}: not among {roll}",
        "no_rerolls": "no rerolls left: write {dice} in a box",
        "keep_what": "keep which dice? e.g. keep 5 6 (or reroll all)",
        "extra_words": "'{word}' takes no more words",
        "control_keys": "arrow and other control keys are not input",
        "ascii_digits": "type the dice with the digits 1-{faces}",
        "dice_count": "type {n} dice",
        "bad_move": "not a move now: {text}",
        "roll_first": "the dice are not rolled yet",
        "save_name": "save FILE: name the file",
        "folder": "{path} is a folder, not a file",
        "cannot_write": "cannot write the game to {path}",
        "fair_undo": "the dice are seen: a choice can be undone only before new dice "
                     "(--undo free allows more)",
        "undo_count": "undo N: N is a whole number from 1",
        "confirm": "game over? Enter to finish, undo to take back the last score> ",
        "status_kept": "kept {dice}, {n} dice to roll",
        "status_roll": "dice to roll",
        "solving": "solving the optimal strategy for {rules} once ({about}, {size} on disk); "
                   "it is stored for later games",
        "solving_parts": "solving the explanations for {rules} once ({about}); "
                         "they are stored for later games",
        "faster": "faster: --rules {rules} ({about})",
        "stoppable": "Ctrl-C stops it (the game is saved)",
        "compiling": "compiling {what} first (once after an install or an update, "
                     "about {seconds} s)",
        "compiled_solver": "the solver", "compiled_player": "the computer players",
        "solve_failed": "the solve of {rules} stopped without a table",
        "not_built": "{rules} not solved: it takes {about}; start again with --yes to solve it",
        "build_question": "solve it now ({about})? [y/N] ", "yes": "y",
        "bar": "solving {rules}",
        "no_disk": "{rules} cannot be solved here: "
                   "its table needs {size} on disk, {free} are free",
        "no_memory": "{rules} cannot be solved here: "
                     "it needs {size} of memory, {free} are available",
        "recorded": "{n} decisions recorded in {path}",
        "cannot_record": "cannot record the review in {path}",
        "game_empty_name": "player '{text}': the name is empty",
        "game_bad_kind": "player '{text}': expected NAME or NAME=KIND, KIND one of {kinds}",
        "game_players": "{n} players: a game has 1..{most}",
        "game_same_name": "two players share a name",
        "game_seat_kind": "a computer cannot play {kind} under these rules",
        "game_nothing_undo": "nothing to undo", "game_nothing_redo": "nothing to redo",
        "game_game_over": "the game is over",
        "game_roll_first": "roll the dice first",
        "game_keep_first": "keep some dice first (keep 5 6, reroll all) or score",
        "game_roll_count": "type {n} dice",
        "game_roll_count_kept": "type the {n} new dice (or all of them with the kept {kept})",
        "game_bad_dice": "'{text}': not dice",
        "game_no_rerolls": "no rerolls left: write {dice} in a box",
        "game_not_among": "{dice}: not among {roll}",
        "game_bad_move": "not a move: '{text}'",
        "game_name_column": "name the column: BOX@1..{n}",
        "game_bad_column": "the column after @ is 1..{n}",
        "game_unknown_box": "unknown box '{name}'",
        "game_box_filled": "{box} is already filled",
        "game_box_not_now": "{box} may not take {dice} now",
        "game_wrong_points": "{box} takes {points} points, not {said}",
        "game_cannot_read": "{path}: cannot read the file",
        "game_not_json": "{path}: not a JSON document",
        "game_not_game": "{path}: not a saved game this program can read",
        "game_bad_saved_move": "{path}: move {n} of the file is not legal",
        "about": "about {t}", "hours": "h",
        "tally": "{name} has lost {loss} points so far",
        "free_undo": "free undo was used in this game",
        "what_if": "{action}: {loss}",
        "loss_of": "loses {loss} points against {best}",
        "col_action": "action", "col_expected": "expected", "col_bound": "bound",
        "col_loss": "loss", "word_best": "best", "word_tie": "tie",
        "keep": "keep", "reroll_all": "reroll all", "score": "score",
        "player": "Player",
        "kind_optimal": "optimal", "kind_greedy": "greedy", "kind_simple": "simple",
        "kind_step": "step",
        "help": "commands: keep 5 6 | 56 | score BOX | BOX | reroll all | hint [MOVE] | "
                "card | status | undo [N] | redo | save FILE | quit",
    },
    "nb": {
        "sum": "Sum", "bonus": "Bonus", "total": "Totalt", "yahtzee_bonus": "Yatzybonus",
        "bank": "Spart",
        "turn": "{name} sin tur ({n} av {of})",
        "rolled": "{name} kaster {dice}, {left} igjen",
        "left": "{n} kast",
        "decide": "{name}> ",
        "dice_prompt": "{name}, skriv terningene> ",
        "reroll_prompt": "{name}, skriv de {n} nye terningene> ",
        "computer": "{name} ({kind}): {action}",
        "scored": "{name} fører {points} på {box}",
        "best": "beste valg",
        "cost": "det kostet {loss} poeng; beste var {best}",
        "top3": "tre gode valg: {choices}",
        "saved": "spillet er lagret i {path}",
        "undone": "angret: {move}",
        "redone": "gjort igjen: {move}",
        "nothing_undo": "ingenting å angre",
        "nothing_redo": "ingenting å gjøre igjen",
        "over": "spillet er slutt",
        "place": "{place}. {name} {score}",
        "tie": "uavgjort mellom {names}",
        "winner": "{name} vinner",
        "review": "gjennomgang for {name}: tap {total}, {mean} per valg ({n} valg)",
        "costly": "  tur {turn} kast {roll}, terninger {dice}: {chosen}, beste {best} "
                  "(tap {loss})",
        "expected": "forventet sluttsum {ev}",
        "weighted": "× kolonne",
        "expected_bound": "sluttsum {ev} om kolonnene spilles én etter én herfra "
                          "(en nedre grense: strategien får mer)",
        "bound_note": "grense: eksakt sluttsum om kolonnene spilles én etter én etter "
                      "denne runden (en nedre grense); rekkefølge og tap: strategiens",
        "help_columns": "før BOKS@K (eller bare BOKS@K) fører i kolonne K, f.eks. før sjanse@3",
        "error": "feil: {text}",
        "unknown_command": "ukjent kommando '{word}' (skriv hjelp)",
        "unknown_box": "ukjent boks '{name}'",
        "box_filled": "{box} er allerede fylt",
        "box_not_now": "{box} kan ikke ta {dice} nå",
        "forced_box": "rekkefølgen sier {box} nå",
        "name_column": "velg kolonne: {box}@1..{n}",
        "not_among": "{dice}: finnes ikke blant {roll}",
        "no_rerolls": "ingen kast igjen: før {dice} på en boks",
        "keep_what": "behold hvilke terninger? f.eks. behold 5 6 (eller kast alle)",
        "extra_words": "'{word}' tar ingen flere ord",
        "control_keys": "piltaster og andre kontrolltaster er ikke inndata",
        "ascii_digits": "skriv terningene med sifrene 1-{faces}",
        "dice_count": "skriv {n} terninger",
        "bad_move": "ikke et lovlig trekk nå: {text}",
        "roll_first": "terningene er ikke kastet ennå",
        "save_name": "lagre FIL: oppgi filen",
        "folder": "{path} er en mappe, ikke en fil",
        "cannot_write": "kan ikke skrive spillet til {path}",
        "fair_undo": "terningene er sett: et valg kan bare angres før nye terninger "
                     "(--undo free tillater mer)",
        "undo_count": "angre N: N er et helt tall fra 1",
        "confirm": "er spillet slutt? Enter for å avslutte, angre for å ta tilbake "
                   "siste føring> ",
        "status_kept": "beholdt {dice}, {n} terninger å kaste",
        "status_roll": "terningene skal kastes",
        "solving": "regner ut beste strategi for {rules} én gang ({about}, {size} på disk); "
                   "den lagres til senere spill",
        "solving_parts": "regner ut forklaringene for {rules} én gang ({about}); "
                         "de lagres til senere spill",
        "faster": "raskere: --rules {rules} ({about})",
        "stoppable": "Ctrl-C stopper utregningen (spillet lagres)",
        "compiling": "kompilerer {what} først (én gang etter installering eller oppdatering, "
                     "omtrent {seconds} s)",
        "compiled_solver": "løseren", "compiled_player": "datamaskinspillerne",
        "solve_failed": "utregningen for {rules} stoppet uten tabell",
        "not_built": "{rules} er ikke regnet ut: det tar {about}; start på nytt med --yes "
                     "for å regne",
        "build_question": "regne ut nå ({about})? [j/N] ", "yes": "j",
        "bar": "regner ut {rules}",
        "no_disk": "{rules} kan ikke regnes ut her: "
                   "tabellen trenger {size} på disk, {free} er ledig",
        "no_memory": "{rules} kan ikke regnes ut her: "
                     "det trengs {size} minne, {free} er ledig",
        "recorded": "{n} valg lagret i {path}",
        "cannot_record": "kan ikke lagre gjennomgangen i {path}",
        "game_empty_name": "spiller '{text}': navnet er tomt",
        "game_bad_kind": "spiller '{text}': skriv NAVN eller NAVN=STRATEGI "
                         "(strategiene: se --help)",
        "game_players": "{n} spillere: et spill har 1..{most}",
        "game_same_name": "to spillere har samme navn",
        "game_seat_kind": "en datamaskin kan ikke spille {kind} med disse reglene",
        "game_nothing_undo": "ingenting å angre", "game_nothing_redo": "ingenting å gjøre igjen",
        "game_game_over": "spillet er slutt",
        "game_roll_first": "kast terningene først",
        "game_keep_first": "behold noen terninger først (behold 5 6, kast alle) eller før "
                           "på en boks",
        "game_roll_count": "skriv {n} terninger",
        "game_roll_count_kept": "skriv de {n} nye terningene (eller alle, med de beholdte "
                                "{kept})",
        "game_bad_dice": "'{text}': ikke terninger",
        "game_no_rerolls": "ingen kast igjen: før {dice} på en boks",
        "game_not_among": "{dice}: finnes ikke blant {roll}",
        "game_bad_move": "ikke et trekk: '{text}'",
        "game_name_column": "velg kolonne: BOKS@1..{n}",
        "game_bad_column": "kolonnen etter @ er 1..{n}",
        "game_unknown_box": "ukjent boks '{name}'",
        "game_box_filled": "{box} er allerede fylt",
        "game_box_not_now": "{box} kan ikke ta {dice} nå",
        "game_wrong_points": "{box} gir {points} poeng, ikke {said}",
        "game_cannot_read": "{path}: filen kan ikke leses",
        "game_not_json": "{path}: ikke et JSON-dokument",
        "game_not_game": "{path}: ikke et lagret spill dette programmet kan lese",
        "game_bad_saved_move": "{path}: trekk {n} i filen er ikke lovlig",
        "about": "omtrent {t}", "hours": "t",
        "tally": "{name} har tapt {loss} poeng så langt",
        "free_undo": "fri angring ble brukt i dette spillet",
        "what_if": "{action}: {loss}",
        "loss_of": "taper {loss} poeng mot {best}",
        "col_action": "trekk", "col_expected": "forventet", "col_bound": "grense",
        "col_loss": "tap", "word_best": "beste", "word_tie": "likt",
        "keep": "behold", "reroll_all": "kast alle", "score": "før",
        "player": "Spiller",
        "kind_optimal": "optimal", "kind_greedy": "grådig", "kind_simple": "enkel",
        "kind_step": "steg",
        "help": "kommandoer: behold 5 6 | 56 | før BOKS | BOKS | kast alle | tips [TREKK] | "
                "kort | status | angre [N] | omgjør | lagre FIL | avslutt",
    },
    "sv": {
        "sum": "Summa", "bonus": "Bonus", "total": "Totalt", "yahtzee_bonus": "Yatzybonus",
        "bank": "Sparade",
        "turn": "{genitive} tur ({n} av {of})",
        "rolled": "{name} slår {dice}, {left} kvar",
        "left": "{n} slag",
        "decide": "{name}> ",
        "dice_prompt": "{name}, skriv tärningarna> ",
        "reroll_prompt": "{name}, skriv de {n} nya tärningarna> ",
        "computer": "{name} ({kind}): {action}",
        "scored": "{name} skriver {points} på {box}",
        "best": "bästa valet",
        "cost": "det kostade {loss} poäng; bäst var {best}",
        "top3": "tre bra val: {choices}",
        "saved": "spelet sparat i {path}",
        "undone": "ångrat: {move}",
        "redone": "gjort om: {move}",
        "nothing_undo": "inget att ångra",
        "nothing_redo": "inget att göra om",
        "over": "spelet är slut",
        "place": "{place}. {name} {score}",
        "tie": "oavgjort mellan {names}",
        "winner": "{name} vinner",
        "review": "genomgång för {name}: förlust {total}, {mean} per val ({n} val)",
        "costly": "  tur {turn} slag {roll}, tärningar {dice}: {chosen}, bäst {best} "
                  "(förlust {loss})",
        "expected": "förväntad slutsumma {ev}",
        "weighted": "× kolumn",
        "expected_bound": "slutsumma {ev} om kolumnerna spelas en i taget härifrån "
                          "(en nedre gräns: strategin får mer)",
        "bound_note": "gräns: exakt slutsumma om kolumnerna spelas en i taget efter "
                      "denna runda (en nedre gräns); ordning och förlust: strategins",
        "help_columns": "skriv RUTA@K (eller bara RUTA@K) skriver i kolumn K, t.ex. skriv chans@3",
        "error": "fel: {text}",
        "unknown_command": "okänt kommando '{word}' (skriv hjälp)",
        "unknown_box": "okänd ruta '{name}'",
        "box_filled": "{box} är redan ifylld",
        "box_not_now": "{box} kan inte ta {dice} nu",
        "forced_box": "ordningen säger {box} nu",
        "name_column": "välj kolumn: {box}@1..{n}",
        "not_among": "{dice}: finns inte bland {roll}",
        "no_rerolls": "inga slag kvar: skriv {dice} i en ruta",
        "keep_what": "behåll vilka tärningar? t.ex. behåll 5 6 (eller slå om alla)",
        "extra_words": "'{word}' tar inga fler ord",
        "control_keys": "piltangenter och andra styrtangenter är inte indata",
        "ascii_digits": "skriv tärningarna med siffrorna 1-{faces}",
        "dice_count": "skriv {n} tärningar",
        "bad_move": "inget tillåtet drag nu: {text}",
        "roll_first": "tärningarna är inte slagna än",
        "save_name": "spara FIL: ange filen",
        "folder": "{path} är en mapp, inte en fil",
        "cannot_write": "kan inte skriva spelet till {path}",
        "fair_undo": "tärningarna är sedda: ett val kan bara ångras före nya tärningar "
                     "(--undo free tillåter mer)",
        "undo_count": "ångra N: N är ett heltal från 1",
        "confirm": "är spelet slut? Enter för att avsluta, ångra för att ta tillbaka "
                   "sista raden> ",
        "status_kept": "behöll {dice}, {n} tärningar att slå",
        "status_roll": "tärningarna ska slås",
        "solving": "räknar ut bästa strategin för {rules} en gång ({about}, {size} på disk); "
                   "den sparas till senare spel",
        "solving_parts": "räknar ut förklaringarna för {rules} en gång ({about}); "
                         "de sparas till senare spel",
        "faster": "snabbare: --rules {rules} ({about})",
        "stoppable": "Ctrl-C avbryter uträkningen (spelet sparas)",
        "compiling": "kompilerar {what} först (en gång efter installation eller uppdatering, "
                     "ungefär {seconds} s)",
        "compiled_solver": "lösaren", "compiled_player": "datorspelarna",
        "solve_failed": "uträkningen för {rules} avbröts utan tabell",
        "not_built": "{rules} är inte uträknat: det tar {about}; starta igen med --yes "
                     "för att räkna",
        "build_question": "räkna ut nu ({about})? [j/N] ", "yes": "j",
        "bar": "räknar ut {rules}",
        "no_disk": "{rules} kan inte räknas ut här: "
                   "tabellen behöver {size} på disk, {free} är ledigt",
        "no_memory": "{rules} kan inte räknas ut här: "
                     "det behövs {size} minne, {free} är ledigt",
        "recorded": "{n} val sparade i {path}",
        "cannot_record": "kan inte spara genomgången i {path}",
        "game_empty_name": "spelare '{text}': namnet är tomt",
        "game_bad_kind": "spelare '{text}': skriv NAMN eller NAMN=STRATEGI "
                         "(strategierna: se --help)",
        "game_players": "{n} spelare: ett spel har 1..{most}",
        "game_same_name": "två spelare har samma namn",
        "game_seat_kind": "en dator kan inte spela {kind} med dessa regler",
        "game_nothing_undo": "inget att ångra", "game_nothing_redo": "inget att göra om",
        "game_game_over": "spelet är slut",
        "game_roll_first": "slå tärningarna först",
        "game_keep_first": "behåll några tärningar först (behåll 5 6, slå om alla) eller "
                           "skriv i en ruta",
        "game_roll_count": "skriv {n} tärningar",
        "game_roll_count_kept": "skriv de {n} nya tärningarna (eller alla, med de behållna "
                                "{kept})",
        "game_bad_dice": "'{text}': inte tärningar",
        "game_no_rerolls": "inga slag kvar: skriv {dice} i en ruta",
        "game_not_among": "{dice}: finns inte bland {roll}",
        "game_bad_move": "inget drag: '{text}'",
        "game_name_column": "välj kolumn: RUTA@1..{n}",
        "game_bad_column": "kolumnen efter @ är 1..{n}",
        "game_unknown_box": "okänd ruta '{name}'",
        "game_box_filled": "{box} är redan ifylld",
        "game_box_not_now": "{box} kan inte ta {dice} nu",
        "game_wrong_points": "{box} ger {points} poäng, inte {said}",
        "game_cannot_read": "{path}: filen kan inte läsas",
        "game_not_json": "{path}: inget JSON-dokument",
        "game_not_game": "{path}: inget sparat spel som detta program kan läsa",
        "game_bad_saved_move": "{path}: drag {n} i filen är inte tillåtet",
        "about": "ungefär {t}", "hours": "h",
        "tally": "{name} har förlorat {loss} poäng hittills",
        "free_undo": "fri ångring användes i detta spel",
        "what_if": "{action}: {loss}",
        "loss_of": "förlorar {loss} poäng mot {best}",
        "col_action": "drag", "col_expected": "förväntat", "col_bound": "gräns",
        "col_loss": "förlust", "word_best": "bäst", "word_tie": "lika",
        "keep": "behåll", "reroll_all": "slå om alla", "score": "skriv",
        "player": "Spelare",
        "kind_optimal": "optimal", "kind_greedy": "girig", "kind_simple": "enkel",
        "kind_step": "steg",
        "help": "kommandon: behåll 5 6 | 56 | skriv RUTA | RUTA | slå om alla | tips [DRAG] | "
                "protokoll | status | ångra [N] | gör om | spara FIL | avsluta",
    },
}


def box_name(name: str, lang: str = "en") -> str:
    """The printed name of the box called ``name`` (its English name) in ``lang``."""
    return BOXES.get(lang, {}).get(name, name.replace("_", " "))


def message(key: str, lang: str = "en", **kw) -> str:
    """The message ``key`` in ``lang``, its fields filled from ``kw``."""
    return MESSAGES[lang][key].format(**kw)


def number(x: float, digits: int, lang: str = "en") -> str:
    """``x`` with ``digits`` decimals, a decimal comma in nb and sv.

    >>> number(2.5, 2, "nb"), number(-0.125, 1, "en")
    ('2,50', '-0.1')
    """
    text = f"{x:.{digits}f}"
    return text if lang == "en" else text.replace(".", ",")


# Command and action words typed at the prompt, each language's to English
# (English is accepted in every language); phrases of two or three words first.
COMMAND_WORDS: dict[str, dict[str, str]] = {
    "nb": {"kast alle": "reroll all", "gjør om": "redo", "behold": "keep", "kast": "roll",
           "før": "score", "hjelp": "help", "kort": "card", "tips": "hint", "angre": "undo",
           "omgjør": "redo", "lagre": "save", "avslutt": "quit"},
    "sv": {"slå om alla": "reroll all", "slå om": "reroll", "gör om": "redo",
           "behåll": "keep", "slå": "roll", "skriv": "score", "hjälp": "help",
           "protokoll": "card", "tips": "hint", "ångra": "undo", "spara": "save",
           "avsluta": "quit"},
}


def english_command(line: str, lang: str = "en") -> str:
    """``line`` with its leading command words (``behold``, ``slå om alla``)
    in English, the rest as typed.

    >>> english_command("behåll 5 6", "sv"), english_command("kast alle", "nb")
    ('keep 5 6', 'reroll all')
    """
    words = line.split()
    low = [w.lower() for w in words]
    for phrase, english in sorted(COMMAND_WORDS.get(lang, {}).items(),
                                  key=lambda kv: -len(kv[0].split())):
        n = len(phrase.split())
        if " ".join(low[:n]) == phrase:
            return " ".join([english, *words[n:]])
    return line


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def box_index(rules: Rules, name: str) -> int:
    """Index of the box called ``name`` in any language: the rules' names
    and aliases, else a printed name of ``BOXES``."""
    try:
        return rules.box_index(name)
    except InputError as e:
        error = e
    key = _key(name)
    for words in BOXES.values():
        for english, local in words.items():
            if _key(local) == key:
                try:
                    return rules.box_index(english)
                except InputError:
                    pass
    raise error


# The sentences of an explanation (solver.players.explain), per language;
# numbers come formatted (words.number: a decimal comma in nb and sv)
EXPLAIN = {
    "en": {"best": "{act} is the best choice (expected final score {ev}).",
           "tie": "{act} is as good as the best choice.",
           "costs": "{act} costs {loss}: {parts}.", "and": "and", "while": ", while ",
           "write": "writing {points} in {box}", "keep": "keeping {dice}",
           "reroll": "rerolling all dice",
           "falls": "the bonus chance falls from {best} to {chosen} ({diff})",
           "rises": "the bonus chance rises from {best} to {chosen} ({diff})",
           "box": "{box} expects {chosen} points instead of {best} ({diff})",
           "yahtzee_bonus": "yahtzee bonuses expect {chosen} points instead of "
                            "{best} ({diff})"},
    "nb": {"best": "{act} er det beste valget (forventet sluttsum {ev}).",
           "tie": "{act} er like godt som det beste valget.",
           "costs": "{act} koster {loss}: {parts}.", "and": "og", "while": ", mens ",
           "write": "å føre {points} på {box}", "keep": "å beholde {dice}",
           "reroll": "å kaste alle terningene på nytt",
           "falls": "sjansen for bonus faller fra {best} til {chosen} ({diff})",
           "rises": "sjansen for bonus stiger fra {best} til {chosen} ({diff})",
           "box": "{box} ventes å gi {chosen} poeng i stedet for {best} ({diff})",
           "yahtzee_bonus": "yatzybonusene ventes å gi {chosen} poeng i stedet for "
                            "{best} ({diff})"},
    "sv": {"best": "{act} är det bästa valet (förväntad slutsumma {ev}).",
           "tie": "{act} är lika bra som det bästa valet.",
           "costs": "{act} kostar {loss}: {parts}.", "and": "och", "while": ", medan ",
           "write": "att skriva {points} på {box}", "keep": "att behålla {dice}",
           "reroll": "att slå om alla tärningar",
           "falls": "chansen till bonus sjunker från {best} till {chosen} ({diff})",
           "rises": "chansen till bonus stiger från {best} till {chosen} ({diff})",
           "box": "{box} väntas ge {chosen} poäng i stället för {best} ({diff})",
           "yahtzee_bonus": "yatzybonusarna väntas ge {chosen} poäng i stället för "
                            "{best} ({diff})"},
}

# The groups of boxes an explanation names
GROUP_WORDS = {
    "en": {"upper": "the upper boxes", "pairs_and_kinds": "pairs and kinds",
           "straights": "the straights", "full_house": "full house", "chance": "chance",
           "yatzy": "yatzy"},
    "nb": {"upper": "de øvre boksene", "pairs_and_kinds": "par og like",
           "straights": "straightene", "full_house": "hus", "chance": "sjanse",
           "yatzy": "yatzy"},
    "sv": {"upper": "de övre rutorna", "pairs_and_kinds": "par och tretal/fyrtal",
           "straights": "stegarna", "full_house": "kåk", "chance": "chans", "yatzy": "yatzy"},
}
