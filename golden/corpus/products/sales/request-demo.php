<?php
  // Landing page for the demo request form. Server-side code never reaches the index.
  $campaign = isset($_GET['utm_campaign']) ? htmlspecialchars($_GET['utm_campaign']) : 'direct';
  $db_host = "10.0.0.12";
?>
<!DOCTYPE html>
<html>
<head><title>Request an RX demo</title></head>
<body>
  <h1>See an RX robot in your own facility</h1>
  <p>Northwind Robotics offers a free on-site demo day for qualified manufacturers and warehouses
     in the United States and Canada. A field engineer brings an RX-200 or RX-300 to your site and
     runs it on one of your real tasks.</p>
  <h2>How the demo day works</h2>
  <ol>
    <li>Submit the form below with your facility address and the task you want automated.</li>
    <li>A solutions engineer calls you within 2 business days to scope the demo.</li>
    <li>The demo day itself lasts about 6 hours, including setup and a results review.</li>
  </ol>
  <form method="post" action="/demo"><input name="company"><button>Request demo</button></form>
  <p>Campaign: <?= $campaign ?></p>
</body>
</html>
