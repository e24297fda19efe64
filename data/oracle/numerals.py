"""Arabic numerals into their Chinese reading: chapter 7's translation task, and chapter 9's
model. Written apart from src/train/numerals_task.cpp, by another method.
"""
from model import TRAINED_SHAPE


# --- ch07 the numerals task: Arabic numerals into their Chinese reading ------------------------
# Written apart from src/train/numerals_task.cpp, by another method: one scan over the eight
# digits with a pending 零, where the C++ reads two groups of four. The rules, as stated there:
# one 零 for a run of zeros between non-zero digits, also at the start of the lower group after a
# non-zero 万 group; no 零 for zeros that end a group; 一十 at the very start becomes 十; 2 is read
# 两 in the 千 place and when it stands alone before 万 (两千, 两万, 两千万), 二 elsewhere (二十,
# 二百, 十二, 十二万).
NUMERAL_DIGITS = "零一二三四五六七八九"
NUMERAL_TARGETS = ["<pad>", "<bos>", "<eos>"] + list(NUMERAL_DIGITS) + ["十", "百", "千", "万", "两"]

# Checked by hand, one by one, against the rules above (and against how a Chinese primary-school
# textbook reads numbers: 每级末尾的0都不读, 其他数位上有一个0或连续几个0都只读一个零).
HAND_CHECKED_READINGS = [
    (0, "零"),
    (1, "一"),
    (7, "七"),
    (10, "十"),
    (11, "十一"),
    (2, "二"),
    (12, "十二"),
    (15, "十五"),
    (20, "二十"),
    (22, "二十二"),
    (99, "九十九"),
    (100, "一百"),
    (101, "一百零一"),
    (110, "一百一十"),
    (115, "一百一十五"),
    (200, "二百"),
    (210, "二百一十"),
    (305, "三百零五"),
    (1000, "一千"),
    (1005, "一千零五"),
    (1010, "一千零一十"),
    (1050, "一千零五十"),
    (1100, "一千一百"),
    (1500, "一千五百"),
    (2000, "两千"),
    (2015, "两千零一十五"),
    (2026, "两千零二十六"),
    (2222, "两千二百二十二"),
    (9999, "九千九百九十九"),
    (10000, "一万"),
    (10001, "一万零一"),
    (10010, "一万零一十"),
    (10100, "一万零一百"),
    (11000, "一万一千"),
    (12000, "一万两千"),
    (15000, "一万五千"),
    (20000, "两万"),
    (20002, "两万零二"),
    (22000, "两万两千"),
    (50005, "五万零五"),
    (100000, "十万"),
    (100010, "十万零一十"),
    (110000, "十一万"),
    (120000, "十二万"),
    (150000, "十五万"),
    (1000000, "一百万"),
    (1000100, "一百万零一百"),
    (1001000, "一百万一千"),
    (1010000, "一百零一万"),
    (1020000, "一百零二万"),
    (2000000, "二百万"),
    (10000000, "一千万"),
    (10010000, "一千零一万"),
    (10101010, "一千零一十万一千零一十"),
    (12345678, "一千二百三十四万五千六百七十八"),
    (20000001, "两千万零一"),
    (20020000, "两千零二万"),
    (22222222, "两千二百二十二万两千二百二十二"),
    (30000300, "三千万零三百"),
    (99999999, "九千九百九十九万九千九百九十九"),
]


def chinese_reading(n):
    if not 0 <= n <= 99999999:
        raise ValueError(f"{n} is outside 0 ... 99999999")
    if n == 0:
        return "零"
    digits = f"{n:08d}"
    out, pending = "", False
    for i, ch in enumerate(digits):  # 千 百 十 (ones) of the 万 group, then of the lower group
        if ch == "0":
            pending = pending or out != ""
        else:
            # 两: a 2 in a 千 place, or a 2 alone in the 万 group (spoken Chinese: 两千, 两万)
            two = ch == "2" and (i % 4 == 0 or (i == 3 and digits[:3] == "000"))
            name = "两" if two else NUMERAL_DIGITS[int(ch)]
            out += ("零" if pending else "") + name + ["千", "百", "十", ""][i % 4]
            pending = False
        if i == 3 and out:  # the end of the 万 group: its trailing zeros are not read
            out, pending = out + "万", False
    return out[1:] if out.startswith("一十") else out


def numeral_check_numbers():
    """The numbers the chapter reads for --check: the hand-checked ones, every number below 1100,
    and 600 more with 3 to 8 digits (Python's own generator: not the one the training uses)."""
    import random

    r = random.Random(2026)
    wide = [r.randrange(10 ** (d - 1), 10**d) for d in range(3, 9) for _ in range(100)]
    return [n for n, _ in HAND_CHECKED_READINGS] + list(range(1100)) + wide


def numeral_ids(reading):
    return [NUMERAL_TARGETS.index(ch) for ch in reading] + [NUMERAL_TARGETS.index("<eos>")]


# The model and run for --task numerals, chosen by measurement (chapters/README.md, chapter 7):
# the reversal model's shape with batches of 32.
NUMERALS_TRAINING = dict(
    TRAINED_SHAPE,
    batch_size=32,
    factor=1.0,
    warmup=200,
    smoothing=0.1,
    max_steps=4000,
    max_digits=8,
    seed=1,
    heldout=1000,
    heldout_seed=4321,
    check_steps=20,
)


def numerals_inputs():
    for n, reading in HAND_CHECKED_READINGS:  # the oracle's reader agrees with the hand
        assert chinese_reading(n) == reading, (n, chinese_reading(n), reading)
    return {
        "hand_checked": [[n, reading] for n, reading in HAND_CHECKED_READINGS],
        "check_numbers": numeral_check_numbers(),
        "target_vocabulary": NUMERAL_TARGETS,
        "training": NUMERALS_TRAINING,
    }


def numeral_reading_ids(numbers):
    """Each number's reading as target ids ending with <eos>, padded with <pad> (0) to one width."""
    rows = [numeral_ids(chinese_reading(n)) for n in numbers]
    width = max(len(r) for r in rows)
    return [r + [0] * (width - len(r)) for r in rows]
