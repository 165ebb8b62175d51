"""Write the binary files (.docx, .pdf, .xlsx) of the bundled sample corpus.

Text files (.md, .txt, .csv) are committed directly; only the binaries are built
here. Output is deterministic (fixed metadata dates and zip entry timestamps, no
randomness), so re-running the script reproduces identical bytes.

Usage: python golden/build_sample_corpus.py

Document content is written in a tiny markdown subset: "# " title, "## " heading,
"- " bullet, "1. " numbered item, "| a | b |" table row (first row is the header),
"---" page break; other lines are joined into paragraphs (blank line separates).
"""

from __future__ import annotations

import io
import re
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import xlsxwriter
from docx import Document
from fpdf import FPDF

CORPUS = Path(__file__).resolve().parent / "corpus"
FIXED_DT = datetime(2025, 1, 15, 9, 0, 0, tzinfo=UTC)
ZIP_DT = (2025, 1, 15, 9, 0, 0)
AUTHOR = "Northwind Robotics"

ONBOARDING = """\
# New Employee Onboarding Guide

Welcome to Northwind Robotics! This guide explains what happens before your first
day, what your first week looks like and which trainings you must complete. Keep it
handy during your first three months.

## Before Your First Day

Remote employees receive their laptop by courier at least 5 business days before
their start date. Employees who work from an office pick up their laptop on day one
at the IT bar. Activate your account with the link in your welcome email and set up
MFA with the NW Authenticator app before you sign in for the first time.

## Your First Week

| Day | Activity | Owner |
| Monday | Welcome session at 9:30, laptop setup, badge photo | People Ops, IT |
| Tuesday | Security awareness training, NW Vault setup | IT Security |
| Wednesday | Product tour of the RX-200 and RX-300 in the demo lab | Product |
| Thursday | Goal-setting meeting with your manager | Manager |
| Friday | Lunch with your onboarding buddy, first-week retro | Buddy |

## Required Trainings

- Security awareness training must be completed within 14 days of your start date.
  Your accounts are suspended if it is overdue.
- Robot lab safety training is required before you enter the robot test lab. Safety
  shoes and safety glasses are mandatory in the lab at all times.
- Read and acknowledge the Code of Conduct in PeopleHub within 7 days.

## Probation Period

New employees have a probation period of 90 days. Your manager schedules check-in
meetings at day 30, day 60 and day 90 to give feedback and agree on goals. You
become eligible for parental leave and the sabbatical program only after completing
probation.

## Buddy Program

Every new hire is paired with an onboarding buddy from another team for the first 3
months. Your buddy answers everyday questions, introduces you to colleagues and
joins your first-week retro. Buddies can expense one coffee or lunch per month with
their new hire, up to $40.

## Your Contacts

Your HR partner for onboarding questions is Maria Fernandes
(maria.fernandes@northwind-robotics.example, +1 415-555-0178). For laptop and
account problems, contact it-helpdesk@northwind-robotics.example.
"""

INCIDENT_RUNBOOK = """\
# Incident Response Runbook

This runbook describes how Northwind Robotics engineering responds to incidents
affecting FleetOS, the customer portal, the firmware update service or robots in the
field. Anyone can declare an incident; when in doubt, declare one. It is cheaper to
close an unnecessary incident than to start one too late.

## 1. Severity Levels

| Severity | Definition | Response |
| SEV1 | Outage of FleetOS or the customer portal, or robot safety issue | Page, 24/7 |
| SEV2 | Major degradation affecting a subset of customers | Page, 24/7 |
| SEV3 | Minor issue with a workaround available | Business hours |
| SEV4 | Cosmetic issue, no customer impact | Backlog ticket |

If you are unsure between two severities, choose the higher one. The incident
commander can downgrade the severity later.

## 2. Roles

- Incident Commander (IC): owns the incident, coordinates responders and makes
  decisions. The IC does not debug; they delegate.
- Operations Lead: investigates and applies mitigations.
- Communications Lead: writes status page updates and customer emails.
- Scribe: keeps a timeline of events and decisions in the incident channel.

The on-call engineer who receives the first page acts as incident commander until a
trained IC takes over. For SEV1 incidents, a trained IC must take over within 30
minutes.

## 3. Declaring an Incident

1. Type /incident declare in the chat tool and choose a severity.
2. The bot creates a channel named #inc-YYYYMMDD-short-name and pages the on-call IC
   for SEV1 and SEV2.
3. Post what you know: symptoms, affected customers, start time.
4. Start a video bridge for SEV1 and SEV2 and link it in the channel.

---

## 4. Communication

The Communications Lead updates the public status page every 30 minutes for SEV1
incidents and every 60 minutes for SEV2 incidents, even if there is no news. For
SEV1 incidents, affected customers receive an email within 1 hour of the incident
being declared. Internal stakeholders follow the incident channel; do not discuss
the incident in private messages.

## 5. Escalation

- If a SEV1 incident is not mitigated within 2 hours, the IC escalates to the VP of
  Engineering.
- For safety-relevant robot issues, notify the Functional Safety lead immediately.
  The IC may use Fleet Pause in FleetOS to stop all robots at a customer site; this
  requires approval from the customer's site contact unless people are at risk.
- Suspected security breaches are handed over to the IT Security team, who then lead
  the investigation.

## 6. Resolution and Postmortem

An incident is resolved when customer impact has ended and monitoring confirms
stable operation for at least 30 minutes. A blameless postmortem is required for
every SEV1 and SEV2 incident. The postmortem draft must be written within 5 business
days and reviewed in the weekly operations review. Every action item gets an owner
and a due date; action items from SEV1 postmortems must be completed within 30 days.

## 7. After Hours

Responders who work on an incident at night follow the compensation rules of the On-
Call Policy. The IC sends tired responders home and arranges hand-offs for incidents
that last longer than 4 hours.
"""

RX200_USER_GUIDE = """\
# RX-200 User Guide

This guide explains how to install, start, operate and maintain the RX-200
collaborative robot arm with the NC-2 controller and the RX Teach pendant. Read the
safety section before operating the robot. A risk assessment of the complete
application is required before collaborative operation.

## 1. Unpacking and Mounting

- Lift the arm only with the lifting strap supplied in the box; never lift it by the
  tool flange. The arm weighs 34 kg; two people are required.
- Mount the base with four M10 bolts (strength class 8.8) tightened to 45 Nm.
- The mounting surface must be flat within 0.05 mm and stiff enough to absorb the
  reaction forces of the arm at full speed.
- Place the NC-2 controller at least 0.5 m from walls so its fans can cool it.

## 2. Start-Up Procedure

1. Connect the robot cable and the RX Teach pendant to the NC-2 controller.
2. Switch on the main power switch on the front of the NC-2 controller.
3. Wait until the controller status LED is solid green (about 60 seconds).
4. Release the emergency stop button on the pendant by twisting it clockwise.
5. Tap Power On, then Brake Release. Each joint clicks once when its brake opens.
   The robot is now ready to run programs.

## 3. Operating Modes

Automatic mode runs programs at full programmed speed and is used inside a
safeguarded cell. Collaborative mode is used when people work next to the robot
without fencing: the TCP speed is limited to 250 mm/s and the default force limit is
150 N. Manual mode is used for teaching positions; hold the freedrive button on the
back of the pendant to move the arm by hand.

---

## 4. Emergency Stop and Recovery

Pressing the emergency stop on the pendant or an external emergency stop button
performs a stop category 1: the arm brakes in a controlled way and then the motors
are switched off. To recover, remove the cause of the stop, twist the button to
release it, acknowledge the message on the pendant and tap Power On again. Programs
restart from the beginning unless resume points are configured.

## 5. Maintenance

- Run the Home Calibration Routine every 500 operating hours, and always after an
  E-204 Encoder Mismatch error or a joint replacement.
- Test the joint brakes every 6 months with the Brake Test wizard on the pendant.
- Inspect the robot cable and pendant cable for damage every month.
- Clean the arm with a damp cloth and mild detergent. Never use compressed air or
  high-pressure water on the joints.
- Have an annual inspection performed by Northwind service or a certified partner to
  keep CarePlus coverage valid.

## 6. Shutting Down

1. Stop the running program and move the arm to its packing or home position.
2. Tap Power Off on the pendant. The brakes engage.
3. Switch off the main power switch on the NC-2 controller.
4. Wait at least 30 seconds before switching the controller on again.

## 7. Storage and Transport

Store the robot between -10 and 50 degrees C in a dry place. For transport, move the
arm into the packing position from the pendant menu before switching it off, and use
the original foam inserts.
"""

RX300_QUICK_START = """\
# RX-300 Quick Start Guide

This guide takes you from unboxing to the first mission with an RX-300 autonomous
mobile robot and FleetOS. Plan about half a day for a first robot, including mapping
a small area.

## Step 1: Prepare the Site

- Make sure Wi-Fi 6 coverage is available along all routes the robot will use.
- Floors must be flat and dry; gaps and thresholds must be below 15 mm.
- Install the RX Dock against a wall with at least 1 m of free space in front and
  0.5 m on each side, next to a grounded power outlet.

## Step 2: First Power-On

Remove the transport locks from both drive wheels. Press the power button for 2
seconds. The robot runs a self-test that takes about 90 seconds; keep the area
around the robot clear during the self-test. Then connect the robot to FleetOS by
scanning the QR code on the status screen with the FleetOS tablet app.

## Step 3: Create a Map with Map Walk

Start Map Walk mode in the FleetOS tablet app and drive the robot slowly through
every aisle it will use, at walking pace. Close loops by returning to the starting
point. A single map can cover up to 50,000 square meters. When you finish, FleetOS
processes the map in a few minutes; then mark docks, pickup and drop-off positions
and localization markers.

## Step 4: Run Your First Mission

In FleetOS, create a mission from a template, for example "Move cart from A to B",
and assign it to the robot. Stay near the robot during the first missions and keep
an emergency stop button within reach.

## Status Light Reference

| Light | Meaning |
| Solid green | Ready for missions |
| Pulsing blue | Charging on the RX Dock |
| Solid amber | Low battery (below 15%), heading to a dock |
| Flashing yellow | Paused, for example after losing Wi-Fi |
| Solid white | Map Walk mode active |
| Flashing red | Fault; see the N- error code in FleetOS |

## Safety Reminders

The RX-300 slows down to 1.2 m/s in shared zones and stops when a person enters its
protective field. Never ride on the robot, and never disable the LIDAR scanners or
protective fields.
"""

DISCOUNT_POLICY = """\
# Discount and Quotation Policy

This policy applies to all quotes for RX-200 and RX-300 robots, accessories, FleetOS
licenses and services issued by the Northwind Robotics direct sales team. Reseller
pricing is covered by the Reseller Partner Program.

## Quotes

- Quotes are created in the CRM and are valid for 60 days from the date of issue.
  Expired quotes must be re-issued at current list prices.
- Every quote for RX-300 robots must include a FleetOS site license.
- Prices are quoted in USD. Quotes in EUR use the monthly rate set by Finance.

## Volume Discounts

Volume discounts apply to robots (RX-200 arms and RX-300 base units) ordered on a
single purchase order:

| Robots per order | Volume discount |
| 1 to 4 | 0% |
| 5 to 9 | 5% |
| 10 to 24 | 8% |
| 25 or more | 12% |

## Discount Approval

Any additional discount beyond the volume table needs approval. Total discounts up
to 15% can be approved by the Regional Sales Manager. Total discounts above 15%
require approval from the Sales Director, and anything above 25% must be approved by
the CFO.

## Academic Discount

Universities and research institutes receive an academic discount of 20% on robots.
The academic discount cannot be combined with volume discounts.

## Payment Terms

Standard payment terms are net 30 days. Orders above $250,000 require a 30% deposit
when the order is placed. General questions about this policy can be sent to
info@northwind-robotics.example.
"""

STOCK = [
    ["sku", "warehouse", "on_hand", "reserved", "reorder_point"],
    ["RX200-ARM", "PDX", 42, 11, 15],
    ["RX200-ARM", "MUC", 18, 6, 8],
    ["RX200-PEND-5M", "PDX", 120, 9, 40],
    ["RX200-GRIP-2F", "PDX", 64, 20, 25],
    ["RX200-SCREW", "MUC", 22, 4, 10],
    ["RX300-AMR", "RNO", 27, 14, 12],
    ["RX300-AMR", "MUC", 9, 5, 6],
    ["RX300-DOCK", "RNO", 55, 16, 20],
    ["RX300-LIFT", "RNO", 31, 8, 12],
    ["RX300-ROLLER", "RNO", 12, 3, 6],
    ["RX300-HITCH", "RNO", 40, 2, 10],
    ["RX300-IO", "PDX", 75, 12, 25],
]
WAREHOUSES = [
    ["code", "name", "city", "country", "capacity_units"],
    ["PDX", "Portland Central", "Portland", "US", 1200],
    ["RNO", "Reno Logistics Hub", "Reno", "US", 2500],
    ["MUC", "Munich EU Depot", "Munich", "DE", 800],
]

# A parsed block: (kind, payload); kind is title/h/p/ul/ol/table/pagebreak.
Block = tuple[str, list[str] | list[list[str]]]
LIST_ITEM = re.compile(r"^(- |\d+\. )")

DISCHARGE_GUIDE = """\
# Going home from hospital: discharge guide

Aldermoor Hospitals. This guide explains what happens on the day you leave hospital.

## The discharge lounge

Patients who are ready to go home but waiting for transport, medicines or a relative wait in the
discharge lounge, so that their bed can be prepared for the next patient. The lounge is open Monday
to Friday from 08:00 to 20:00 and has reclining chairs, drinks and sandwiches.

## Medicines to take home

The ward pharmacist checks your medicines. You receive up to 14 days of any new medicine; after that
your family doctor prescribes it.

## Patient transport

Hospital transport is only for patients whose medical condition means they cannot travel any other
way. Book it through the ward at least 24 hours in advance.

| Item | Who arranges it | When |
| Discharge letter | ward doctor | on the day you leave |
| Follow-up appointment | ward clerk | sent by post within 7 days |
| District nurse visit | discharge coordinator | first visit within 48 hours |
"""

ANNUAL_LEAVE = """\
# Staff handbook extract: annual leave and sickness reporting

Aldermoor Hospitals Workforce Office.

## Annual leave

Full-time staff receive 27 days of annual leave plus bank holidays, rising to 29 days after five years
of service and 33 days after ten years. Leave is booked in RosterPoint at least 6 weeks before the
roster is published. Up to 5 days may be carried over into the next leave year with the manager's
agreement.

---

## Reporting sickness

Call your ward manager or the bleep holder at least 2 hours before the start of your shift, or 4 hours
before a night shift. Do not text or e-mail. On the first day back, complete a return-to-work interview
with your manager.
"""


def parse(text: str) -> list[Block]:
    """Parse the markdown subset described in the module docstring."""
    blocks: list[Block] = []
    for chunk in text.strip().split("\n\n"):
        lines = chunk.splitlines()
        first = lines[0]
        if first.startswith("# "):
            blocks.append(("title", [first[2:]]))
        elif first.startswith("## "):
            blocks.append(("h", [first[3:]]))
        elif first == "---":
            blocks.append(("pagebreak", []))
        elif first.startswith("|"):
            rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines]
            blocks.append(("table", rows))
        elif LIST_ITEM.match(first):
            items: list[str] = []
            for line in lines:
                if LIST_ITEM.match(line):
                    items.append(LIST_ITEM.sub("", line))
                else:
                    items[-1] += " " + line.strip()
            blocks.append(("ul" if first.startswith("-") else "ol", items))
        else:
            blocks.append(("p", [" ".join(ln.strip() for ln in lines)]))
    return blocks


def normalize_zip(path: Path) -> None:
    """Rewrite a zip container with fixed entry timestamps for reproducible bytes."""
    with zipfile.ZipFile(path) as src:
        entries = [(info.filename, src.read(info)) for info in src.infolist()]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=ZIP_DT)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            dst.writestr(info, data)
    path.write_bytes(buf.getvalue())


def write_docx(path: Path, text: str) -> None:
    doc = Document()
    blocks = parse(text)
    props = doc.core_properties
    props.author = props.last_modified_by = AUTHOR
    props.title = str(blocks[0][1][0])
    props.created = props.modified = props.last_printed = FIXED_DT.replace(tzinfo=None)
    props.revision = 1
    for kind, payload in blocks:
        if kind in ("title", "h"):
            doc.add_heading(str(payload[0]), level=0 if kind == "title" else 1)
        elif kind == "p":
            doc.add_paragraph(str(payload[0]))
        elif kind in ("ul", "ol"):
            style = "List Bullet" if kind == "ul" else "List Number"
            for item in payload:
                doc.add_paragraph(str(item), style=style)
        elif kind == "table":
            table = doc.add_table(rows=len(payload), cols=len(payload[0]))
            table.style = "Table Grid"
            for r, row in enumerate(payload):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        elif kind == "pagebreak":
            doc.add_page_break()
    doc.save(str(path))
    normalize_zip(path)


def write_pdf(path: Path, text: str) -> None:
    blocks = parse(text)
    pdf = FPDF(format="A4")
    pdf.set_creation_date(FIXED_DT)
    pdf.set_title(str(blocks[0][1][0]))
    pdf.set_author(AUTHOR)
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.add_page()

    def write(style: str, size: int, height: float, line: str) -> None:
        pdf.set_font("Helvetica", style, size)
        pdf.multi_cell(0, height, line, new_x="LMARGIN", new_y="NEXT")

    for kind, payload in blocks:
        if kind == "title":
            write("B", 18, 10, str(payload[0]))
        elif kind == "h":
            pdf.ln(2)
            write("B", 13, 8, str(payload[0]))
        elif kind == "p":
            write("", 11, 6, str(payload[0]))
        elif kind in ("ul", "ol"):
            for i, item in enumerate(payload, start=1):
                write("", 11, 6, f"{'-' if kind == 'ul' else f'{i}.'} {item}")
        elif kind == "table":
            pdf.set_font("Helvetica", "", 10)
            with pdf.table(line_height=6) as table:
                for row in payload:
                    cells = table.row()
                    for cell in row:
                        cells.cell(str(cell))
        elif kind == "pagebreak":
            pdf.add_page()
        if kind in ("p", "ul", "ol", "table", "title"):
            pdf.ln(2)
    pdf.output(str(path))


def write_xlsx(path: Path, sheets: dict[str, list[list[str | int]]]) -> None:
    workbook = xlsxwriter.Workbook(str(path))
    workbook.set_properties({"title": "Inventory", "author": AUTHOR, "created": FIXED_DT})
    bold = workbook.add_format({"bold": True})
    for name, rows in sheets.items():
        sheet = workbook.add_worksheet(name)
        sheet.write_row(0, 0, rows[0], bold)
        for r, row in enumerate(rows[1:], start=1):
            sheet.write_row(r, 0, row)
        sheet.set_column(0, len(rows[0]) - 1, 16)
    workbook.close()
    normalize_zip(path)


def main() -> None:
    hb, pr = CORPUS / "handbook", CORPUS / "products"
    write_docx(hb / "hr" / "onboarding-guide.docx", ONBOARDING)
    write_pdf(hb / "engineering" / "incident-response-runbook.pdf", INCIDENT_RUNBOOK)
    write_pdf(pr / "rx-200" / "user-guide.pdf", RX200_USER_GUIDE)
    write_docx(pr / "rx-300" / "quick-start-guide.docx", RX300_QUICK_START)
    write_docx(pr / "sales" / "discount-and-quote-policy.docx", DISCOUNT_POLICY)
    write_xlsx(pr / "sales" / "inventory.xlsx", {"Stock": STOCK, "Warehouses": WAREHOUSES})
    ho = CORPUS / "hospital"
    write_docx(ho / "patient-services" / "discharge-guide.docx", DISCHARGE_GUIDE)
    write_pdf(ho / "staff" / "staff-handbook-leave.pdf", ANNUAL_LEAVE)
    print(f"wrote 8 binary files under {CORPUS}")


if __name__ == "__main__":
    main()
