"""Chapter 12's verse measures, written again from their definitions (src/verse/verse.h states
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


def measure(texts, readings, words=None):
    """[lines, doubled, tripled, rhyming, rhyme places, tones kept, tone verses]; a character's
    reading is a word's where two side by side make one (words: "三更" -> its two readings)."""
    words = words or {}

    def read(verse):  # each character's reading where it stands: words read from the start
        out, i = [], 0
        while i < len(verse):
            if "".join(verse[i:i + 2]) in words and i + 1 < len(verse):
                out += words["".join(verse[i:i + 2])]
                i += 2
            else:
                out.append(readings.get(verse[i]))
                i += 1
        return out

    tone_of = lambda r: tone(r) if r is not None else 2
    group_of = lambda r: group(r) if r is not None else -1
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
                said = read(verse)
                decisive = [tone_of(said[i]) for i in range(1, len(verse) - 1, 2)]
                if 2 in decisive:
                    continue
                m["verses"] += 1
                m["kept"] += all(a != b for a, b in zip(decisive, decisive[1:]))
            g = group_of(read(v[1])[-1])
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


def read_pinyin(path, words=None):
    """A pronunciation table (data/corpus/pronunciation.js): character -> its first reading; a
    word's lines ("三更\tsan1\tgeng1") into words: word -> each character's reading."""
    table = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 2 and fields[1]:
                table[fields[0]] = fields[1].split()[0]
            elif len(fields) == 3 and words is not None:
                words[fields[0]] = [fields[1].split()[0], fields[2].split()[0]]
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


# --- the Tang table (平水韵 headings, Middle Chinese tones) and the whole regulated-verse check,
# written again from src/verse/pingshui.h, verse.h and regulated_verse.h ---------------------

PINGSHUI = [  # the 106 headings: level, rising, departing, entering
    "东冬江支微鱼虞齐佳灰真文元寒删先萧肴豪歌麻阳庚青蒸尤侵覃盐咸",
    "董肿讲纸尾语麌荠蟹贿轸吻阮旱潸铣筱巧皓哿马养梗迥有寝感琰豏",
    "送宋绛寘未御遇霁泰卦队震问愿翰谏霰啸效号箇祃漾敬径宥沁勘艳陷",
    "屋沃觉质物月曷黠屑药陌锡职缉合叶洽",
]
HEADINGS = "".join(PINGSHUI)
TONE_WORDS = "平上去入"


def tang_sound(reading):
    """(tone: 0 level, 1 oblique; group: the heading's index, -1 for a tone alone)."""
    if len(reading) == 1 and reading in HEADINGS:
        return (0 if reading in PINGSHUI[0] else 1, HEADINGS.index(reading))
    if len(reading) == 1 and reading in TONE_WORDS:
        return (0 if reading == "平" else 1, -1)
    raise ValueError(reading)


def read_tang(path, words=None):
    """The Tang table: character -> its headings; a word's lines into words (word -> each
    character's headings, a string each)."""
    table = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 2 and fields[1]:
                table[fields[0]] = fields[1].split()
            elif len(fields) == 3 and words is not None:
                words[fields[0]] = fields[1:]
    return table


class Table:
    """A character's readings as (tone, group) pairs, from either table, and the words that read a
    character otherwise: the Tang one keeps every reading of a line and rhymes on level ones;
    Mandarin keeps the first and its groups have no tone."""

    def __init__(self, tang=None, mandarin=None, words=None):
        self.tang = tang is not None
        if self.tang:
            self.sounds = {c: [tang_sound(r) for r in rs] for c, rs in tang.items()}
            self.words = {w: [[tang_sound(r) for r in x.split()] for x in rs]
                          for w, rs in (words or {}).items()}
        else:
            self.sounds = {c: [(tone(r), group(r))] for c, r in mandarin.items()}
            self.words = {w: [[(tone(x), group(x))] for x in rs] for w, rs in (words or {}).items()}

    def at(self, verse):
        """Each character's readings where it stands: a word's where the character and its
        neighbour make one, words read from the verse's start (三更读: 三更, then 读)."""
        out, i = [], 0
        while i < len(verse):
            pair = "".join(verse[i:i + 2])
            if i + 1 < len(verse) and pair in self.words:
                out += self.words[pair]
                i += 2
            else:
                out.append(self.sounds.get(verse[i], []))
                i += 1
        return out

    @staticmethod
    def tones_of(said):
        return {t for t, _ in said if t in (0, 1)}

    def rhyme_of(self, said):  # the groups a rhyme can fall in, of readings where they stand
        return {g for t, g in said if g >= 0 and (not self.tang or t == 0)}


def measure_table(texts, table):
    """[rhyming, rhyme places, tones kept, tone verses]: a verse alternates when some reading of
    each decisive character makes it; a second verse rhymes when its last character shares a
    group with the first couplet's."""
    m = [0, 0, 0, 0]
    for text in texts:
        reference = set()
        for k, line in enumerate(body_lines(text)):
            v = verses(line)
            if v is None:
                continue
            for verse in v:
                if len(verse) not in (5, 7):
                    continue
                said = table.at(verse)
                decisive = [table.tones_of(said[i]) for i in range(1, len(verse) - 1, 2)]
                if any(not d for d in decisive):
                    continue
                m[3] += 1
                m[2] += any(all((start + i) % 2 in d for i, d in enumerate(decisive))
                            for start in (0, 1))
            g = {x for _, x in table.at(v[1])[-1] if x >= 0}
            if k == 0:
                reference = g
            elif reference:
                m[1] += 1
                m[0] += bool(g & reference)
    return m


def poem_verses(text):
    lines = body_lines(text)
    if len(lines) not in (2, 4):
        return None
    vs = []
    for line in lines:
        v = verses(line)
        if v is None:
            return None
        vs += list(v)
    n = len(vs[0])
    if n not in (5, 7) or any(len(v) != n for v in vs):
        return None
    return vs


def three_level(t):
    return t[-1] == 0 and t[-2] == 0 and t[-3] == 0


def lone_level(t):
    tail = t[-5:]
    return tail[-1] == 0 and sum(x == 0 for x in tail[:-1]) == 1 and tail[-2] != 0


# The neighbouring level groups a first verse may borrow its rhyme from (首句借韵), as the
# handbooks list them (王力《汉语诗律学》: 首句用邻韵).
NEIGHBOURS = ["东冬", "江阳", "支微齐", "鱼虞", "佳灰", "真文元", "元寒删先", "萧肴豪", "歌麻",
              "庚青蒸", "覃盐咸"]


def neighbours(a, b):
    x, y = HEADINGS[a], HEADINGS[b]
    return a != b and any(x in line and y in line for line in NEIGHBOURS)


# The licences, on a verse's tones t (0 level, 1 oblique), read on its last five u = t[-5:]; in
# seven characters the 2nd and 4th differ, as in every regulated verse.
def usual_start(t):
    return len(t) == 5 or t[1] != t[3]


def special(t):  # 特拗: x平仄平仄 for 平平平仄仄
    return tuple(t[-4:]) == (0, 1, 0, 1) and usual_start(t)


def twisted(t):  # 大拗: x仄x仄仄 for 仄仄平平仄
    u = t[-5:]
    return u[1] == 1 and u[3] == 1 and u[4] == 1 and usual_start(t)


def rescued(t):  # its 救 in the other verse of the couplet: x平平仄平 for 平平仄仄平
    return tuple(t[-4:]) == (0, 0, 1, 0) and usual_start(t)


def oblique_rhyme(vs, table):
    """A quatrain whose second verses end oblique in one group (仄韵绝句, 古绝)."""
    if len(vs) != 4 or vs[1][-1] == vs[3][-1]:
        return False
    def oblique(v):
        return {g for t, g in table.at(v)[-1] if t == 1 and g >= 0}
    return bool(oblique(vs[1]) & oblique(vs[3]))


def regulated(texts, table):
    """[judged, passed, 重韵, first verse only level, of those rhyming, 三平尾, 孤平, passed with
    特拗, with 大拗 and its 救, with 首句借韵, not passed but rhyming on oblique tones] in poems."""
    import itertools

    m = [0] * 11
    for text in texts:
        vs = poem_verses(text)
        said = None if vs is None else [table.at(v) for v in vs]
        if vs is None or any(not table.tones_of(c) for v in said for c in v):
            continue
        m[0] += 1
        patterns = [list(itertools.product(*[sorted(table.tones_of(c)) for c in v])) for v in said]
        end = lambda i: table.rhyme_of(said[i][-1])  # the rhyme groups of verse i's end
        m[5] += any(all(three_level(t) for t in ps) for ps in patterns)
        m[6] += any(all(lone_level(t) for t in ps) for ps in patterns)
        first_end = vs[0][-1]
        first_level = table.tones_of(said[0][-1]) == {0}
        rhymes = [v[-1] for v in vs[1::2]] + ([first_end] if first_level else [])
        repeated = len(set(rhymes)) < len(rhymes)
        m[2] += repeated
        if first_level:
            m[3] += 1
            m[4] += bool(end(0) & end(1))

        def fits(i, second, end):
            return any(t[1] == second and t[-1] == end and
                       all(t[j] != t[j - 2] for j in range(3, len(t) - 1, 2)) and
                       not (end == 0 and (three_level(t) or lone_level(t)))
                       for t in patterns[i])

        def some(i, second, form):
            return any(t[1] == second and form(t) for t in patterns[i])

        def keeps(allowed):  # allowed: (特拗, 大拗, 借韵)
            if repeated:
                return False
            for second in (0, 1):
                for g in end(1):
                    good = True
                    for c in range(0, len(vs), 2):  # couplet by couplet
                        mine = second if c % 4 == 0 else 1 - second
                        if g not in end(c + 1):
                            good = False
                            break
                        plain_second = fits(c + 1, 1 - mine, 0)
                        if plain_second and fits(c, mine, 1):
                            continue
                        if c == 0 and plain_second and fits(0, mine, 0):  # 首句入韵
                            own = end(0)
                            if g in own or (allowed[2] and table.tang and
                                            any(neighbours(h, g) for h in own)):
                                continue
                        if allowed[0] and plain_second and some(c, mine, special):
                            continue
                        if allowed[1] and some(c, mine, twisted) and some(c + 1, 1 - mine, rescued):
                            continue
                        good = False
                        break
                    if good:
                        return True
            return False

        ok = keeps((True, True, True))
        m[1] += ok
        if ok:  # a licence is needed when the poem fails without it
            m[7] += not keeps((False, True, True))
            m[8] += not keeps((True, False, True))
            m[9] += not keeps((True, True, False))
        else:
            m[10] += oblique_rhyme(vs, table)
    return m


def rate(per_poem):
    """A rate over poems and its standard error: sqrt(n/(n-1) Σ(y - r x)²) / Σx."""
    y = sum(a for a, _ in per_poem)
    x = sum(b for _, b in per_poem)
    if x == 0:
        return [0.0, 0.0]
    r = y / x
    n = sum(1 for _, b in per_poem if b > 0)
    if n < 2:
        return [r, 0.0]
    return [r, (n / (n - 1) * sum((a - r * b) ** 2 for a, b in per_poem)) ** 0.5 / x]


WORD_CLASSES = [  # src/verse/parallelism.h's, typed again
    "一二三四五六七八九十百千万两双半几孤独数",
    "红白青黄绿紫碧翠黑赤丹朱苍素金银玄",
    "东西南北上下左右前后中内外里边",
    "春夏秋冬朝暮晨夕昼夜今古年月日时岁晓晚",
    "天日月星云风雨雪霜露雷烟霞虹",
    "山水江河湖海溪泉峰岭林石沙洲岸城楼台关桥",
    "花草木树柳松竹梅兰菊桃李莲荷叶枝苔",
    "鸟雁鸿莺燕鹤猿马牛羊鱼龙虎蝉鹭鸥凤",
]


PLACES = (  # src/verse/parallelism.cpp's place names, typed again
    "长安 洛阳 咸阳 江南 江东 潇湘 三湘 巫峡 巫山 三峡 瞿塘 黄河 长江 渭水 泾渭 汉水 湘江 湘水 "
    "洞庭 衡阳 岳阳 巴陵 江陵 金陵 扬州 广陵 襄阳 荆州 荆门 姑苏 会稽 若耶 剡溪 镜湖 太湖 "
    "五湖 武陵 西陵 浔阳 九江 彭泽 苍梧 云梦 蓬莱 瀛洲 瑶池 昆仑 华山 嵩山 终南 骊山 北邙 "
    "邙山 天山 阴山 燕山 巴山 秦岭 庐山 天台 峨眉 剑阁 白帝 关中 塞北 岭南 辽海 辽东 中原 "
    "蜀国 楚国 巴蜀 吴越 燕然 交河 轮台 居延 酒泉 玉门 玉关 阳关 函谷 潼关 蓟门 陇头 陇西 "
    "河阳 邯郸 渔阳 夜郎 楼兰 邺城 淮南 京口 建业 新丰 灞陵 霸陵 上林 昭阳 曲江 锦江 清江 "
    "西江 伊水 洛水 洛浦 湘浦 沅湘 汉阳 鄂渚 豫章 吴门 吴宫 楚宫 汉宫 秦川 长沙 赤壁 石城 "
    "洛城 秦关 楚山 吴山 蜀道 湘南 "
    "吴 楚 秦 蜀 巴 湘 洛 渭 陇 淮 郢 灞 汴 闽 邺 泾 沅"
).split()


def placed(a, b):
    """The positions of two verses (strings of one length) where a place name of one starts at
    the same position as a place name of the other, as long, and covers."""
    marks = set()
    for i in range(len(a)):
        for j in range(i + 1, len(a) + 1):
            if a[i:j] in PLACES and b[i:j] in PLACES:
                marks.update(range(i, j))
    return marks


def parallelism(text, table):
    """[middle couplets, aligned pairs, pairs in one word class, of those of opposite tones]
    for a poem of four couplets of one length (5 or 7); zeros otherwise."""
    vs = poem_verses(text)  # two or four couplets of one length, 5 or 7
    if vs is None or len(vs) != 8:
        return [0, 0, 0, 0]
    m = [0, 0, 0, 0]
    for a, b in (vs[2:4], vs[4:6]):
        m[0] += 1
        places = placed(a, b)
        said_a, said_b = table.at(a), table.at(b)
        for i, (x, y) in enumerate(zip(a, b)):
            m[1] += 1
            if i in places or any(x in c and y in c for c in WORD_CLASSES):
                m[2] += 1
                tx, ty = table.tones_of(said_a[i]), table.tones_of(said_b[i])
                m[3] += len(tx) == 1 and len(ty) == 1 and tx != ty
    return m


def rates(texts, table):
    """[share, standard error] of: rhyme, tones, regulated, 重韵, 三平尾, 孤平, first verse's rhyme,
    对仗 (pairs in one class), 对仗 of opposite tones."""
    per = [measure_table([t], table) + regulated([t], table)[:7] + parallelism(t, table)[1:]
           for t in texts]
    pairs = [(0, 1), (2, 3), (5, 4), (6, 4), (9, 4), (10, 4), (8, 7), (12, 11), (13, 12)]
    return [rate([(p[a], p[b]) for p in per]) for a, b in pairs]


# --- doubling: the poets' 叠字 against stutters (src/verse/doubling.h) -------------------------

def doubled_pairs(texts):
    """Every character twice in a row inside a verse of the texts."""
    pairs = set()
    for text in texts:
        for line in body_lines(text):
            v = verses(line)
            for verse in v or ():
                pairs |= {a + b for a, b in zip(verse, verse[1:]) if a == b}
    return pairs


def doublings(texts, attested):
    """[places, doublings, 叠字, stutters] over verses of 5 and 7: 叠字 when the pair is attested
    and it does not straddle the pause (after the 2nd of five; after the 2nd and the 4th of
    seven)."""
    pauses = {5: {2}, 7: {2, 4}}
    m = [0, 0, 0, 0]
    for text in texts:
        for line in body_lines(text):
            for verse in verses(line) or ():
                if len(verse) not in pauses:
                    continue
                for i in range(1, len(verse)):
                    m[0] += 1
                    if verse[i] != verse[i - 1]:
                        continue
                    m[1] += 1
                    poets = verse[i] * 2 in attested and i not in pauses[len(verse)]
                    m[2 if poets else 3] += 1
    return m
