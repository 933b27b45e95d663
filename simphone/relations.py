"""Relation words: how users of the 30 languages name the people in their contacts.

A contact's ``relation`` uses the canonical English word (``mother``); a query word from this
table ("mum", "Mama", "maman", "äiti", "мама") finds it. The table holds the everyday words
only, in their base form; a scenario that needs another word for a person gives it to the
contact's ``aliases``.
"""

from __future__ import annotations

import math

from simphone.search import fold

_WORDS: dict[str, str] = {
    "mother": """mother mum mom mummy mommy mama mutter mami mutti mère maman madre mamá mamma
        mãe mamãe moeder mam mor anne annem mẹ má мама мати матір мать майка mati majka māte
        motina matka ema äiti ibu माँ माता मम्मी أم أمي ماما máma maminka μητέρα μαμά anya anyu
        mamă 母 お母さん ママ 엄마 어머니""",
    "father": """father dad daddy papa vater papi vati père padre papá papà babbo pai papai vader
        pap far pappa baba babam bố cha тато батько папа отец баща татко oče ati otac tata tēvs
        tētis tėtis tėvas ojciec isa issi isä iskä ayah bapak पिता पापा أب أبي بابا táta otec
        πατέρας μπαμπάς apa apu tată 父 お父さん パパ 아빠 아버지""",
    "parent": """parent parents eltern padres genitori pais ouders föräldrar forældre ebeveyn
        родители батьки rodzice vanemad vanhemmat orangtua rodiče γονείς szülők părinți 両親 부모님""",
    "sister": """sister sis schwester sœur hermana sorella irmã zus zuster syster syrra søster
        abla chị сестра sestra māsa sesuo sesė siostra õde sisko sisar saudari बहन दीदी أخت أختي
        ségra αδελφή αδερφή nővér húg soră 姉 妹 お姉さん 언니 누나 여동생""",
    "brother": """brother bro bruder frère hermano fratello irmão broer bror brorsan abi ağabey
        anh брат brat brālis brolis vend veli saudara abang भाई भैया أخ أخي bratr brácha αδελφός
        αδερφός bátya öcs tesó frate 兄 弟 お兄さん 형 오빠 남동생""",
    "sibling": "sibling geschwister kardeş testvér sourozenec rodzeństwo sisarus",
    "wife": """wife frau ehefrau femme épouse esposa mujer moglie mulher vrouw echtgenote fru
        hustru kone karım eş vợ дружина жена съпруга žena supruga sieva žmona żona naine
        abikaasa vaimo istri पत्नी زوجتي زوجة manželka σύζυγος γυναίκα feleség soție 妻 奥さん
        아내 와이프""",
    "husband": """husband hubby mann ehemann mari esposo marido marito man echtgenoot make mand
        kocam koca chồng чоловік муж съпруг mož muž suprug vīrs vyras mąż mees mies aviomies
        suami पति زوجي زوج manžel άντρας férj soț 夫 旦那 남편""",
    "partner": """partner boyfriend girlfriend fiancé fiancée lebensgefährte lebensgefährtin
        partnerin copain copine conjoint novio novia pareja fidanzato fidanzata compagno compagna
        namorado namorada vriend vriendin sambo pojkvän flickvän kæreste sevgilim sevgili
        người_yêu хлопець дівчина парень девушка partnerka chłopak dziewczyna puoliso
        poikaystävä tyttöystävä pacar přítel přítelkyně σύντροφος párom iubit iubita 彼氏 彼女
        恋人 남자친구 여자친구""",
    "daughter": """daughter tochter fille hija figlia filha dochter dotter datter kızım con_gái
        донька дочка дочь дъщеря hčerka hči kći kćer meita dukra córka tütar tytär putri बेटी
        ابنتي بنت dcera κόρη lányom lánya fiică 娘 딸""",
    "son": """son sohn fils hijo figlio filho zoon søn oğlum oğul con_trai син сын sin dēls sūnus syn
        poeg poika putra बेटा ابني ابن γιος fiam fia fiu 息子 아들""",
    "child": """child kid kids kind kinder enfant enfants niño niños bambino bambini criança
        barn çocuk дитина ребёнок дети dziecko lapsi anak dítě παιδί gyerek copil 子供 아이""",
    "grandmother": """grandmother grandma granny nan nana oma großmutter grand-mère mamie abuela
        nonna avó mormor farmor babaanne anneanne nine bà бабуся бабушка баба babica baka
        vecmāmiņa močiutė babcia vanaema mummo isoäiti nenek दादी नानी جدتي جدة تيتا babička
        γιαγιά nagymama bunica おばあちゃん 祖母 할머니""",
    "grandfather": """grandfather grandpa granddad grandad opa großvater grand-père papy abuelo
        nonno avô morfar farfar dede ông дідусь дід дедушка дядо dedek djed vectēvs senelis
        dziadek vanaisa vaari isoisä kakek दादा नाना جدي جد dědeček děda παππούς nagypapa bunic
        おじいちゃん 祖父 할아버지""",
    "aunt": """aunt auntie tante tata tía zia tia moster faster teyze hala dì тітка тётя леля
        teta ciocia tädi täti मौसी बुआ चाची خالتي عمتي خالة عمة θεία nagynéni mătușă 叔母 伯母
        이모 고모""",
    "uncle": """uncle onkel oncle tonton tío zio tio oom morbror farbror amca dayı chú bác cậu
        дядько дядя чичо stric ujak onkulis dėdė wujek onu setä eno paman om चाचा मामा عمي خالي
        عم خال strýc θείος nagybácsi unchi 叔父 伯父 삼촌""",
    "cousin": """cousin cousine primo prima cugino cugina kusin fætter kusine kuzen bratranec
        sestřenice kuzyn kuzynka serkku sepupu ξάδερφος ξαδέρφη unokatestvér văr vară いとこ 사촌""",
    "friend": """friend buddy mate pal freund freundin kumpel ami amie pote amigo amiga amico amica
        vän kompis ven veninde arkadaş arkadaşım bạn друг подруга prijatelj prijateljica draugs
        draugas przyjaciel przyjaciółka sõber ystävä kaveri teman दोस्त صديق صديقي صديقتي
        kamarád φίλος φίλη barát prieten prietenă 友達 친구""",
    "boss": """boss manager supervisor chef chefin vorgesetzter vorgesetzte patron patronne cheffe
        jefe jefa capo chefe baas leidinggevende müdür sếp начальник керівник бос шеф началник
        šef priekšnieks viršininkas szef szefowa ülemus pomo esimies bos atasan बॉस مدير مديري
        šéf αφεντικό προϊστάμενος főnök șef șefa 上司 상사 사장님""",
    "colleague": """colleague coworker kollege kollegin collègue compañero compañera colega
        collega kollega meslektaş đồng_nghiệp колега коллега sodelavec kolega kolēģis kolleeg
        työkaveri rekan सहकर्मी زميل زميلة συνάδελφος kolléga coleg 同僚 동료""",
    "assistant": "assistant assistent assistentin assistante asistente assistente asystent assistentti",
    "doctor": """doctor doc gp arzt ärztin hausarzt médecin docteur médico medico dottore dokter
        huisarts läkare doktor læge bác_sĩ лікар врач доктор лекар zdravnik liječnik ārsts
        gydytojas lekarz arst lääkäri डॉक्टर طبيب دكتور lékař γιατρός orvos medic 医者 의사""",
    "dentist": """dentist zahnarzt zahnärztin dentiste dentista tandarts tandläkare tandlæge
        dişçi nha_sĩ стоматолог зъболекар zobozdravnik zubar zobārsts odontologas dentysta
        hambaarst hammaslääkäri zubař οδοντίατρος fogorvos 歯医者 치과""",
    "neighbour": """neighbour neighbor nachbar nachbarin voisin voisine vecino vecina vicino vicina
        vizinho vizinha buurman buurvrouw granne nabo komşu hàng_xóm сусід сусідка сосед соседка
        съсед sosed susjed kaimiņš kaimynas sąsiad sąsiadka naaber naapuri tetangga पड़ोसी جار
        جاري soused γείτονας szomszéd vecin vecină 隣人 이웃""",
}

# Folded word or phrase -> the canonical relations it names ("tata" is a father in Polish and an
# aunt in French, so a word may name several). Phrases are written with "_" in the table.
RELATION_OF: dict[str, frozenset[str]] = {}
for _relation, _text in _WORDS.items():
    for _word in _text.split():
        _key = fold(_word.replace("_", " "))
        RELATION_OF[_key] = RELATION_OF.get(_key, frozenset()) | {_relation}
_PHRASES = tuple(key for key in RELATION_OF if " " in key)
CANONICAL = frozenset(_WORDS)


def relations_in(folded_query: str, words: list[str]) -> dict[str, frozenset[str]]:
    """Query word (or phrase) -> the canonical relations it names, for those that name one."""
    found = {}
    for w in words:
        named = RELATION_OF.get(w) or _inflected(w)
        if named:
            found[w] = named
    for phrase in _PHRASES:
        if phrase in folded_query:
            found[phrase] = RELATION_OF[phrase]
    return found


def _inflected(word: str) -> frozenset[str]:
    """The relations of an inflected form ("siostrze", "sestře" for sister): a base word that
    shares the word's stem and differs in length by an ending at most ("sestřenice", a cousin,
    is not an inflection of "sestra")."""
    if len(word) < 5:
        return frozenset()
    stem = word[: max(4, math.ceil(len(word) * 0.6))]
    named: frozenset[str] = frozenset()
    for key, relations in RELATION_OF.items():
        if " " not in key and key.startswith(stem) and abs(len(key) - len(word)) <= 2:
            named |= relations
    return named


def canonical(relation: str) -> str:
    """A contact's relation in canonical form when the table knows it ("Mama" -> mother);
    other words are kept as written (folded)."""
    key = fold(relation.strip())
    if key in CANONICAL:
        return key
    named = RELATION_OF.get(key, frozenset())
    return next(iter(named)) if len(named) == 1 else key
