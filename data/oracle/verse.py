"""Chapter 12's verse measures, written again from their definitions (src/train/verse.h states
them): a character's tone (Mandarin tones 1 and 2 level, 3 and 4 oblique) and rhyme group (its
reading's final, in the 14 groups of 中华新韵), and on a set of poems: the lines holding a
character twice or three times in a row, the second verses after the first couplet that rhyme
with the first couplet's, and the verses of 5 or 7 whose 2nd, 4th and 6th characters alternate.
"""

GROUPS = {  # final -> 中华新韵's group, 0 麻 … 13 姑
    0: ["a", "ia", "ua"],
    1: ["o", "uo", "e"],
    2: ["ie", "üe"],
    3: ["ai", "uai"],
    4: ["ei", "ui", "uei"],
    5: ["ao", "iao"],
    6: ["ou", "iu", "iou"],
    7: ["an", "ian", "uan", "üan"],
    8: ["en", "in", "un", "uen", "ün"],
    9: ["ang", "iang", "uang"],
    10: ["eng", "ing", "ong", "iong", "ueng"],
    11: ["i", "ü", "er"],
    12: ["-i"],
    13: ["u"],
}
GROUP_OF = {f: g for g, finals in GROUPS.items() for f in finals}
INITIALS = ["zh", "ch", "sh", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h", "j", "q",
            "x", "r", "z", "c", "s"]


def final(reading):
    """The reading's final: tone digit and initial removed, y/w spellings undone, ü after j, q,
    x, and the apical -i after zh, ch, sh, r, z, c, s."""
    r = reading.rstrip("0123456789").replace("v", "ü")
    for prefix, replacement in (("yu", "ü"), ("yi", "i"), ("y", "i"), ("wu", "u"), ("w", "u")):
        if r.startswith(prefix):
            return replacement + r[len(prefix):]
    for initial in INITIALS:
        if r.startswith(initial):
            rest = r[len(initial):]
            if initial in ("j", "q", "x") and rest.startswith("u"):
                rest = "ü" + rest[1:]
            if initial in ("zh", "ch", "sh", "r", "z", "c", "s") and rest == "i":
                rest = "-i"
            return rest
    return r


def group(reading):
    return GROUP_OF.get(final(reading), -1)


def tone(reading):
    """0 level, 1 oblique, 2 unknown."""
    t = reading[-1:] if reading else ""
    return 0 if t in ("1", "2") else 1 if t in ("3", "4") else 2


def is_han(ch):
    return 0x3400 <= ord(ch) <= 0x9FFF


def body_lines(text):
    lines = text.split("\n")
    if lines and lines[0].startswith("《"):
        lines = lines[1:]
    return [line for line in lines if line]


def runs(line, n):
    """Whether one character comes n or more times in a row."""
    same = 1
    for a, b in zip(line, line[1:]):
        same = same + 1 if a == b else 1
        if same >= n:
            return True
    return False


def verses(line):
    if "，" not in line or not line or line[-1] not in "。？！":
        return None
    comma = line.index("，")
    first, second = line[:comma], line[comma + 1:-1]
    if not first or not second or not all(is_han(c) for c in first + second):
        return None
    return first, second


def measure(texts, readings):
    """[lines, doubled, tripled, rhyming, rhyme places, tones kept, tone verses]."""
    tone_of = lambda ch: tone(readings[ch]) if ch in readings else 2
    group_of = lambda ch: group(readings[ch]) if ch in readings else -1
    m = dict(lines=0, doubled=0, tripled=0, rhyming=0, places=0, kept=0, verses=0)
    for text in texts:
        reference = -1
        for k, line in enumerate(body_lines(text)):
            m["lines"] += 1
            m["doubled"] += runs(line, 2)
            m["tripled"] += runs(line, 3)
            v = verses(line)
            if v is None:
                continue
            for verse in v:
                if len(verse) not in (5, 7):
                    continue
                decisive = [tone_of(verse[i]) for i in range(1, len(verse) - 1, 2)]
                if 2 in decisive:
                    continue
                m["verses"] += 1
                m["kept"] += all(a != b for a, b in zip(decisive, decisive[1:]))
            g = group_of(v[1][-1])
            if k == 0:
                reference = g
            elif reference >= 0:
                m["places"] += 1
                m["rhyming"] += g == reference
    return [m[k] for k in ("lines", "doubled", "tripled", "rhyming", "places", "kept", "verses")]


# readings that cross every rule of final(): each group, y and w, ü after j/q/x and l/n, the
# apical -i, a syllabic nasal and a missing tone
EXAMPLE_READINGS = [
    "ma1", "jia1", "hua1", "bo2", "guo2", "he2", "ye4", "jie1", "xue3", "lüe4", "yue4", "kai1",
    "huai2", "fei1", "gui4", "wei2", "hao3", "xiao4", "you3", "liu2", "shan1", "tian1", "chuan2",
    "yuan2", "quan2", "ren2", "yin1", "chun1", "wen2", "jun1", "yun2", "yang2", "huang2",
    "wang4", "feng1", "ming2", "hong2", "xiong2", "weng1", "yong3", "yi1", "qi2", "yu2", "ju2",
    "lü4", "nü3", "er2", "zhi1", "chi2", "shi4", "ri4", "zi3", "ci2", "si1", "gu1", "wu2",
    "zhu4", "lu4", "hm5", "ng2", "xing", "de5",
]


def read_pinyin(path):
    """A pronunciation table (data/corpus/pronunciation.js): character -> its first reading."""
    table = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            character, _, readings = line.rstrip("\n").partition("\t")
            if readings:
                table[character] = readings.split()[0]
    return table


def read_fortune(path):
    """The poems of a fortune file as the model reads them: 《title》, then a couplet a line."""
    import re

    texts, entry = [], []
    for line in open(path, encoding="utf-8").read().split("\n") + ["%"]:
        line = re.sub(r"\x1b\[[0-9;]*m", "", line)
        if line == "%":
            lines = [l for l in entry if l and not l.startswith("作者")]
            if lines and lines[0].startswith("《"):
                texts.append(lines[0] + "\n" + "\n".join(lines[1:]))
            entry = []
        else:
            entry.append(line)
    return texts
